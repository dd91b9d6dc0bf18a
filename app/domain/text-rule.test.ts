import { describe, expect, it } from "vitest";

import { accountNameSchema, accountPatchSchema } from "./billing";
import { packagesFormSchema, serviceCreateBody } from "./schemas/catalogue";
import { gradeRequestSchema } from "./schemas/grader";
import { inviteBodySchema } from "./schemas/ops";
import { contactFormSchema, purchaseBodySchema } from "./schemas/order";
import { testCardSchema } from "./schemas/test-card";
import type { z } from "./zod";

/*
 * One text rule for every name and title (decision 066): C0 and C1 control characters and the
 * bidirectional overrides and isolates are refused with a message naming the field; names in any
 * script (and the invisible right-to-left mark some keyboards type) are fine.
 */

const REFUSED = {
  "C1 next line (U+0085)": "Nora\u0085Smith",
  "C1 control sequence introducer (U+009B)": "Nora\u009b31m",
  "right-to-left override (U+202E)": "Nora\u202Egnp.exe",
  "left-to-right embedding (U+202A)": "\u202aNora",
  "pop directional formatting (U+202C)": "Nora\u202c",
  "left-to-right isolate (U+2066)": "\u2066Nora",
  "pop directional isolate (U+2069)": "Nora\u2069",
  "bell (U+0007)": "Nora\u0007",
};
const ACCEPTED = ["Nora Smith", "Zoë O'Brien-Łukasz", "نورا", "נועה כהן", "Nora\u200f", "山田 太郎"];

const fields: Record<string, { schema: z.ZodType; input: (name: string) => unknown; path: (string | number)[] }> = {
  "account name": { schema: accountNameSchema, input: (name) => name, path: [] },
  "account name (API)": { schema: accountPatchSchema, input: (name) => ({ name }), path: ["name"] },
  "order name": {
    schema: purchaseBodySchema,
    input: (name) => ({ name, email: "a@b.test", services: [{ serviceId: "x", pricingType: "one_time", quantity: 1 }] }),
    path: ["name"],
  },
  "contact first name": {
    schema: contactFormSchema,
    input: (firstName) => ({ intent: "contact", firstName, email: "a@b.test", message: "Hello" }),
    path: ["firstName"],
  },
  "contact last name": {
    schema: contactFormSchema,
    input: (lastName) => ({ intent: "contact", lastName, email: "a@b.test", message: "Hello" }),
    path: ["lastName"],
  },
  "grader name": { schema: gradeRequestSchema, input: (name) => ({ answers: {}, name }), path: ["name"] },
  "team invite name": { schema: inviteBodySchema, input: (name) => ({ name, email: "a@b.test" }), path: ["name"] },
  "service name": { schema: serviceCreateBody, input: (name) => ({ name, price: 10 }), path: ["name"] },
  "package name": {
    schema: packagesFormSchema,
    input: (name) => ({
      intent: "save-packages",
      serviceId: "s",
      tiers: [0, 1, 2].map((i) => ({ name: i === 1 ? name : "Basic", price: 10, features: "One" })),
    }),
    path: ["tiers", 1, "name"],
  },
  "name on card": {
    schema: testCardSchema,
    input: (cardholder) => ({ intent: "pay", cardNumber: "4242424242424242", expiry: "12/99", cvc: "123", cardholder }),
    path: ["cardholder"],
  },
};

function issueAt(schema: z.ZodType, value: unknown, path: (string | number)[]) {
  const result = schema.safeParse(value);
  return result.success ? undefined : result.error.issues.find((issue) => JSON.stringify(issue.path) === JSON.stringify(path));
}

describe.each(Object.entries(fields))("%s", (_label, field) => {
  it.each(Object.entries(REFUSED))("refuses %s with a clear message", (_what, value) => {
    expect(issueAt(field.schema, field.input(value), field.path)?.message).toMatch(
      /contains characters that are not allowed \(control or text-direction characters\)$/,
    );
  });

  it.each(ACCEPTED)("accepts %s", (value) => {
    expect(issueAt(field.schema, field.input(value), field.path)).toBeUndefined();
  });
});
