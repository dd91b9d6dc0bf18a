import { describe, expect, test } from "vitest";

import { EXPIRY_MESSAGES, expiryProblem, testCardSchema } from "./test-card";

const NOV_2026 = new Date("2026-11-26T12:00:00Z");
const card = (fields: Record<string, string>) => ({
  intent: "pay",
  cardNumber: "4242 4242 4242 4242",
  expiry: "12 / 39",
  cvc: "123",
  cardholder: "Ana",
  ...fields,
});
const errorsOf = (fields: Record<string, string>) => {
  const parsed = testCardSchema.safeParse(card(fields));
  return parsed.success ? {} : parsed.error.flatten().fieldErrors;
};

describe("the test checkout's expiry", () => {
  test.each(["1230", "12/30", "12 / 30", " 12/ 30 ", "11/26", "1126"])("%s is accepted", (value) => {
    expect(expiryProblem(value, NOV_2026)).toBeNull();
  });

  test.each([
    ["10/26", EXPIRY_MESSAGES.past],
    ["1025", EXPIRY_MESSAGES.past],
    ["13/30", EXPIRY_MESSAGES.month],
    ["0030", EXPIRY_MESSAGES.month],
    ["12/3", EXPIRY_MESSAGES.incomplete],
    ["12/2030", EXPIRY_MESSAGES.incomplete],
    ["ab/cd", EXPIRY_MESSAGES.incomplete],
  ])("%s is refused with one message: %s", (value, message) => {
    expect(expiryProblem(value, NOV_2026)).toBe(message);
  });

  test("the form says one thing per problem", () => {
    expect(errorsOf({ expiry: "1239" })).toEqual({});
    expect(errorsOf({ expiry: "12/3" }).expiry).toEqual([EXPIRY_MESSAGES.incomplete]);
    expect(errorsOf({ expiry: "  " }).expiry).toEqual([EXPIRY_MESSAGES.required]);
    expect(errorsOf({ cardNumber: "4242" }).cardNumber).toEqual(["Your card number is incomplete."]);
  });
});
