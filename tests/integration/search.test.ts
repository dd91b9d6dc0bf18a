import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";

import type { SearchAnswer } from "~/domain/search";
import { createService } from "~/models/catalogue.server";
import * as searchPage from "~/routes/dashboard+/_staff+/search";
import { db, schema } from "~/utils/db.server";

import { call, catalogue, createAccount, createPurchase, readJson, type Account } from "../support/dashboard-helpers";
import { createCustomerWithThread, unique } from "../support/factories";

/** GET /dashboard/search (decision 191): customers, orders, conversations and services, each hit a link; staff only. */

let staff: Account;
let nora: Account;
let orderId: string;
let serviceId: string;
const word = `zephyr${unique()
  .replace(/[^a-z0-9]/gi, "")
  .toLowerCase()}`;

beforeAll(async () => {
  const services = await catalogue();
  staff = await createAccount("team", { name: "Search Staff" });
  nora = await createCustomerWithThread({
    name: `Nora ${word}`,
    email: `nora.${word}@example.test`,
    messages: [`The calendar for ${word}-launch is ready on Friday`],
  });
  const { order } = await createPurchase(nora.user.id, services[0]!);
  await db
    .update(schema.orders)
    .set({ name: `Nora ${word}`, email: `nora.${word}@example.test` })
    .where(eq(schema.orders.id, order.id));
  orderId = order.id;
  serviceId = (await createService({ id: staff.user.id, name: staff.user.name }, { name: `Carousel ${word}`, description: "Ten slides.", priceCents: 4200 }))
    .id;
});

async function search(q: string, auth: Account | null = staff) {
  const response = await call(searchPage.loader, `/dashboard/search?${new URLSearchParams({ q })}`, { auth: auth && { cookie: auth.cookie } });
  return { status: response.status, body: [200, 400].includes(response.status) ? await readJson<SearchAnswer>(response) : null };
}

describe("GET /dashboard/search", () => {
  test("a word finds the customer, their order, their conversation and a service, each a link to its page", async () => {
    const { status, body } = await search(word);
    expect(status).toBe(200);
    expect(body!.groups!.customers).toEqual([
      {
        id: nora.user.id,
        href: `/dashboard/users/${nora.user.id}`,
        title: `Nora ${word}`,
        detail: `nora.${word}@example.test`,
        client: { id: nora.user.id, name: `Nora ${word}` },
      },
    ]);
    expect(body!.groups!.orders).toEqual([
      expect.objectContaining({ id: orderId, href: `/dashboard/orders/${orderId}`, title: `BL-${orderId.slice(0, 8).toUpperCase()} · Nora ${word}` }),
    ]);
    expect(body!.groups!.threads).toEqual([
      expect.objectContaining({ href: `/dashboard/inbox/${nora.user.id}`, title: `Nora ${word}`, detail: expect.stringContaining("calendar") }),
    ]);
    expect(body!.groups!.services).toEqual([
      { id: serviceId, href: `/dashboard/catalogue/services/${serviceId}`, title: `Carousel ${word}`, detail: "$42.00 · Active" },
    ]);
  });

  test("words are prefixes, in any case: a name part, the e-mail, a message word, the receipt number", async () => {
    const prefix = word.slice(0, -2);
    expect((await search(`NORA ${prefix}`)).body!.groups!.customers.map((hit) => hit.id)).toEqual([nora.user.id]);
    expect((await search(`nora.${word}@exam`)).body!.groups!.customers.map((hit) => hit.id)).toEqual([nora.user.id]);
    const byMessage = (await search("calendar friday")).body!.groups!.threads.map((hit) => hit.href);
    expect(byMessage).toContain(`/dashboard/inbox/${nora.user.id}`);
    const receipt = `BL-${orderId.slice(0, 6).toUpperCase()}`;
    expect((await search(receipt)).body!.groups!.orders.map((hit) => hit.id)).toEqual([orderId]);
    expect((await search("ten slides")).body!.groups!.services.map((hit) => hit.id)).toContain(serviceId);
  });

  test("a receipt number whose id starts with eight digits (text search reads it as a signed number) is found too", async () => {
    const digits = String(10_000_000 + crypto.randomInt(89_999_999));
    const id = `${digits}${crypto.randomUUID().slice(8)}`;
    await db.insert(schema.orders).values({ id, email: `digits.${word}@example.test`, name: `Digits ${word}`, status: "paid", totalCents: 100 });
    expect((await search(`BL-${digits.slice(0, 6)}`)).body!.groups!.orders.map((hit) => hit.id)).toContain(id);
    expect((await search(`bl-${digits}`)).body!.groups!.orders.map((hit) => hit.id)).toEqual([id]);
  });

  test("nothing found is an empty answer; staff are never listed as customers; the hidden package rows never show", async () => {
    expect((await search(`${word}nothing`)).body!.groups).toEqual({ customers: [], orders: [], threads: [], services: [] });
    expect((await search("search staff")).body!.groups!.customers).toEqual([]);
    const audit = (await search("social media audit")).body!.groups!.services;
    expect(audit.map((hit) => hit.title)).toEqual(["Social Media Audit"]);
  });

  test("an empty search shows the form; one character asks for more; control characters and overlong text are 400 with a message", async () => {
    expect(await search("")).toEqual({ status: 200, body: { q: "", problem: null, groups: null } });
    expect(await search("n")).toEqual({ status: 200, body: { q: "n", problem: "Type at least 2 characters.", groups: null } });
    const control = await call(searchPage.loader, "/dashboard/search?q=a%00b", { auth: { cookie: staff.cookie } });
    expect(control.status).toBe(400);
    expect((await readJson<SearchAnswer>(control)).problem).toMatch(/^The search contains characters that are not allowed/);
    const long = await search("x".repeat(201));
    expect(long).toEqual({ status: 400, body: { q: "x".repeat(201), problem: "The search must be at most 200 characters.", groups: null } });
    // Punctuation alone has no words: an empty result, not an error.
    expect((await search("!!")).body!.groups).toEqual({ customers: [], orders: [], threads: [], services: [] });
  });

  test("customers get 403 and the signed-out sign in", async () => {
    const asCustomer = await call(searchPage.loader, `/dashboard/search?q=${word}`, { auth: { cookie: nora.cookie } });
    expect(asCustomer.status).toBe(403);
    const anonymous = await call(searchPage.loader, `/dashboard/search?q=${word}`);
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("Location")).toMatch(/^\/login\?redirectTo=/);
  });
});
