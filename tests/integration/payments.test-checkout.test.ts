import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";

import { CONTACT_MESSAGE_REQUIRED } from "~/domain/schemas/order";
import * as landing from "~/routes/_index";
import * as servicesRoute from "~/routes/api+/services+/_layout";
import * as purchaseRoute from "~/routes/api+/services+/purchase";
import * as checkoutRoute from "~/routes/checkout.[test].$sessionId";
import * as cancelRoute from "~/routes/purchase.cancel";
import * as successRoute from "~/routes/purchase.success";
import { db, schema } from "~/utils/db.server";

import { settle } from "../support/call-route";
import { createTestUser, sessionCookieFor } from "../support/factories";
import { readOutbox } from "../support/outbox";
import { CONTEXT, decodeEmail, emailsTo, formRequest, freshContext, jsonRequest, seedServices, uniqueEmail } from "../support/payments-helpers";

/* The embedded default: no STRIPE_SECRET_KEY, so orders go to the built-in test checkout. */

let services: Awaited<ReturnType<typeof seedServices>>;
beforeAll(async () => {
  services = await seedServices();
});

const responseOf = async (run: () => Promise<unknown>): Promise<Response> => (await settle(run)).response;

async function orderFromLanding(fields: Record<string, string | string[]>, context = freshContext()) {
  return responseOf(() => landing.action({ request: formRequest("/?index", { intent: "order", ...fields }), params: {}, context }));
}

const sessionIdOf = (location: string) => location.split("/checkout/test/")[1];
const orderBySession = async (id: string) => (await db.select().from(schema.orders).where(eq(schema.orders.stripeSessionId, id)))[0];
const pay = (sessionId: string, fields: Record<string, string>) =>
  responseOf(() => checkoutRoute.action({ request: formRequest(`/checkout/test/${sessionId}`, fields), params: { sessionId }, context: CONTEXT }));
const GOOD_CARD = { intent: "pay", cardNumber: "4242 4242 4242 4242", expiry: "12 / 39", cvc: "123", cardholder: "Morgan Lee" };

describe("the landing page", () => {
  test("its loader lists the active catalogue and sets no cookie for a signed-out visitor", async () => {
    const result = await responseOf(() => landing.loader({ request: new Request("http://localhost/"), params: {}, context: CONTEXT }));
    expect(result.headers.get("Set-Cookie")).toBeNull();
    const body = await result.json();
    expect(body.user).toBeNull();
    expect(body.services.data.map((s: { name: string }) => s.name)).toEqual(services.map((s) => s.name));
    // Screens take cents (decision 162): dollars are only the public API's.
    expect(body.services.data[0]).toEqual({
      id: services[0].id,
      name: services[0].name,
      priceCents: services[0].priceCents,
      currency: "usd",
      description: services[0].description,
    });
  });

  test("GET /api/services answers the catalogue in the contract's shape", async () => {
    const response = await servicesRoute.loader({ request: new Request("http://localhost/api/services"), params: {}, context: CONTEXT });
    const body = await response.json();
    expect(body.success).toBe(true);
    expect(body.data).toHaveLength(services.length);
    expect(body.data[0]).toMatchObject({ _id: expect.any(String), name: expect.any(String), price: expect.any(Number), currency: "usd" });
  });

  test("the order form (no JavaScript needed) creates a pending order and redirects to the test checkout", async () => {
    const email = uniqueEmail();
    const response = await orderFromLanding({ name: "Form Buyer", email, services: [services[3].id, services[4].id] });
    expect(response.status).toBe(302);
    const location = response.headers.get("Location")!;
    expect(location).toMatch(/^http:\/\/localhost:\d+\/checkout\/test\/cs_test_/);
    const order = await orderBySession(sessionIdOf(location));
    expect(order).toMatchObject({ status: "pending", email, totalCents: services[3].priceCents + services[4].priceCents });
  });

  test("form errors come back inline with the spec's words and nothing is stored", async () => {
    const before = await db.$count(schema.orders);
    const empty = await orderFromLanding({ name: "X", email: uniqueEmail() });
    expect(empty.status).toBe(400);
    expect((await empty.json()).result.error.services).toEqual(["Please select at least one service."]);
    const blank = await orderFromLanding({ name: " ", email: "bad", services: services[0].id });
    const errors = (await blank.json()).result.error;
    expect(errors.name).toEqual(["Name is required"]);
    expect(errors.email).toEqual(["Invalid email address"]);
    const unknown = await orderFromLanding({ name: "X", email: uniqueEmail(), services: "00000000-0000-4000-8000-000000000000" });
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).formError).toMatch(/not available/);
    expect(await db.$count(schema.orders)).toBe(before);
  });

  test("'Order Now' on an Our Services package is priced from the catalogue, not from the form", async () => {
    const response = await orderFromLanding({ name: "Pkg Buyer", email: uniqueEmail(), packages: "social-media-audit:1", price: "0.01" });
    expect(response.status).toBe(302);
    const order = await orderBySession(sessionIdOf(response.headers.get("Location")!));
    expect(order.totalCents).toBe(2899);
    const again = await orderFromLanding({ name: "Pkg Buyer", email: uniqueEmail(), packages: "social-media-audit:1" });
    expect(again.status).toBe(302);
    expect(await db.$count(schema.services, eq(schema.services.slug, "package-social-media-audit-1"))).toBe(1);
    const listed = await servicesRoute.loader({ request: new Request("http://localhost/api/services"), params: {}, context: CONTEXT });
    expect((await listed.json()).data.some((s: { name: string }) => s.name.includes("(Starter)"))).toBe(false);
    expect((await orderFromLanding({ name: "P", email: uniqueEmail(), packages: "nope:1" })).status).toBe(400);
  });

  test("a plan order goes to the test checkout as a monthly subscription", async () => {
    const response = await responseOf(() =>
      landing.action({
        request: formRequest("/?index", { intent: "plan", planId: "vip", name: "Vic", email: uniqueEmail() }),
        params: {},
        context: freshContext(),
      }),
    );
    expect(response.status).toBe(302);
    const order = await orderBySession(sessionIdOf(response.headers.get("Location")!));
    expect(order).toMatchObject({ kind: "subscription", planId: "vip", totalCents: 58900 });
    const bad = await responseOf(() =>
      landing.action({
        request: formRequest("/?index", { intent: "plan", planId: "gold", name: "V", email: uniqueEmail() }),
        params: {},
        context: freshContext(),
      }),
    );
    expect(bad.status).toBe(400);
  });

  test("orders are limited to 20 a minute per IP address", async () => {
    const context = freshContext();
    const line = [{ serviceId: services[0].id, pricingType: "one_time", quantity: 1 }];
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) {
      const response = await purchaseRoute.action({
        request: jsonRequest("/api/services/purchase", { name: "R", email: uniqueEmail(), services: line }),
        params: {},
        context,
      });
      statuses.push(response.status);
      if (i === 20) expect(response.headers.get("Retry-After")).toMatch(/^\d+$/);
    }
    expect(statuses.slice(0, 20).every((s) => s === 200)).toBe(true);
    expect(statuses[20]).toBe(429);
  });
});

describe("the test checkout", () => {
  test("shows the lines and total, refuses other cards, and Pay fulfils once then redirects to the success URL", async () => {
    const email = uniqueEmail();
    const location = (await orderFromLanding({ name: "Card Buyer", email, services: services[5].id })).headers.get("Location")!;
    const sessionId = sessionIdOf(location);
    const page = await responseOf(() => checkoutRoute.loader({ request: new Request(location), params: { sessionId }, context: CONTEXT }));
    const shown = await page.json();
    expect(shown).toMatchObject({ email, totalCents: services[5].priceCents, lines: [{ name: services[5].name, amountCents: services[5].priceCents }] });

    const declined = await pay(sessionId, { ...GOOD_CARD, cardNumber: "4000 0000 0000 0002" });
    expect(declined.status).toBe(400);
    expect((await declined.json()).result.error.cardNumber).toEqual(["Your card was declined. In test mode, use 4242 4242 4242 4242."]);
    expect((await orderBySession(sessionId)).status).toBe("pending");

    const paid = await pay(sessionId, GOOD_CARD);
    expect(paid.status).toBe(302);
    expect(paid.headers.get("Location")).toMatch(new RegExp(`/purchase/success\\?session_id=${sessionId}$`));
    const order = await orderBySession(sessionId);
    expect(order.status).toBe("paid");
    const purchases = await db.select().from(schema.purchases).where(eq(schema.purchases.orderId, order.id));
    expect(purchases.every((p) => p.status === "in_progress" && p.userId === order.userId)).toBe(true);

    const mails = emailsTo(email).map(decodeEmail);
    expect(mails.filter((m) => m.includes("Your BrandLift order is confirmed"))).toHaveLength(1);
    expect(mails.some((m) => m.includes("/reset-password?token="))).toBe(true);
    // Paying again (a double click, the back button) changes nothing and goes to the success page.
    const twice = await responseOf(() => checkoutRoute.loader({ request: new Request(location), params: { sessionId }, context: CONTEXT }));
    expect(twice.status).toBe(302);
    expect(
      emailsTo(email)
        .map(decodeEmail)
        .filter((m) => m.includes("Your BrandLift order is confirmed")),
    ).toHaveLength(1);
  });

  test("Cancel cancels the order and redirects to the cancel URL", async () => {
    const location = (await orderFromLanding({ name: "Cancel Buyer", email: uniqueEmail(), services: services[6].id })).headers.get("Location")!;
    const sessionId = sessionIdOf(location);
    const cancelled = await pay(sessionId, { intent: "cancel" });
    expect(cancelled.status).toBe(302);
    const order = await orderBySession(sessionId);
    expect(cancelled.headers.get("Location")).toMatch(new RegExp(`/purchase/cancel\\?order=${order.id}$`));
    expect(order.status).toBe("cancelled");
    expect((await pay(sessionId, GOOD_CARD)).status).toBe(409);
    expect(cancelRoute.default).toBeTypeOf("function");
  });

  test("the cancel page keeps its promise: the selection comes back ticked on the landing page", async () => {
    const chosen = [services[2], services[4]];
    const location = (await orderFromLanding({ name: "Back Out", email: uniqueEmail(), services: chosen.map((s) => s.id) })).headers.get("Location")!;
    const cancelledAt = (await pay(sessionIdOf(location), { intent: "cancel" })).headers.get("Location")!;
    const page = await (await responseOf(() => cancelRoute.loader({ request: new Request(cancelledAt), params: {}, context: CONTEXT }))).json();
    expect(page.selection.names).toEqual(chosen.map((s) => s.name));
    expect(page.selection.href).toMatch(/#a-la-carte$/);
    const restored = await (
      await responseOf(() => landing.loader({ request: new Request(`http://localhost${page.selection.href}`), params: {}, context: CONTEXT }))
    ).json();
    expect(restored.selectedServices).toEqual(chosen.map((s) => s.id));

    // A plan comes back as its order form; an unknown or paid order offers nothing to restore.
    const plan = await responseOf(() =>
      landing.action({
        request: formRequest("/?index", { intent: "plan", planId: "pro", name: "Plan Back", email: uniqueEmail() }),
        params: {},
        context: freshContext(),
      }),
    );
    const planCancel = (await pay(sessionIdOf(plan.headers.get("Location")!), { intent: "cancel" })).headers.get("Location")!;
    const planPage = await (await responseOf(() => cancelRoute.loader({ request: new Request(planCancel), params: {}, context: CONTEXT }))).json();
    expect(planPage.selection).toMatchObject({ names: ["PRO PACKAGE (monthly)"], href: "/?planId=pro" });
    const unknown = await responseOf(() =>
      cancelRoute.loader({ request: new Request(`http://localhost/purchase/cancel?order=${crypto.randomUUID()}`), params: {}, context: CONTEXT }),
    );
    expect(await unknown.json()).toEqual({ selection: null });
  });

  test("an unknown session is a 404", async () => {
    const missing = await responseOf(() =>
      checkoutRoute.loader({ request: new Request("http://localhost/checkout/test/cs_test_nope"), params: { sessionId: "cs_test_nope" }, context: CONTEXT }),
    );
    expect(missing.status).toBe(404);
  });
});

describe("the success page", () => {
  const success = (query: string) =>
    responseOf(() => successRoute.loader({ request: new Request(`http://localhost/purchase/success${query}`), params: {}, context: CONTEXT }));

  test("says a payment succeeded only for an order whose money came in", async () => {
    const location = (await orderFromLanding({ name: "Success Buyer", email: uniqueEmail(), services: services[5].id })).headers.get("Location")!;
    const sessionId = sessionIdOf(location);
    const pending = await success(`?session_id=${sessionId}`);
    expect(pending.status).toBe(200);
    expect(await pending.json()).toMatchObject({ outcome: "confirming", order: { status: "pending" } });
    await pay(sessionId, GOOD_CARD);
    expect(await (await success(`?session_id=${sessionId}`)).json()).toMatchObject({ outcome: "paid", order: { status: "paid" } });

    const cancelledAt = (await orderFromLanding({ name: "Cancelled Buyer", email: uniqueEmail(), services: services[6].id })).headers.get("Location")!;
    await pay(sessionIdOf(cancelledAt), { intent: "cancel" });
    expect(await (await success(`?session_id=${sessionIdOf(cancelledAt)}`)).json()).toMatchObject({ outcome: "not-paid" });
  });

  test("an unknown or missing session_id is not found, never a success", async () => {
    for (const query of ["?session_id=cs_test_nobody_paid_this", ""]) {
      const page = await success(query);
      expect(page.status).toBe(404);
      expect(await page.json()).toEqual({ outcome: "unknown", order: null, briefs: [], user: null });
    }
  });

  test("a signed-in customer is pointed to their dashboard, never asked to set a password", async () => {
    const email = uniqueEmail("signed-in");
    const sessionId = sessionIdOf((await orderFromLanding({ name: "Signed In", email, services: services[4].id })).headers.get("Location")!);
    await pay(sessionId, GOOD_CARD);
    const [buyer] = await db.select().from(schema.users).where(eq(schema.users.email, email));
    const request = new Request(`http://localhost/purchase/success?session_id=${sessionId}`, { headers: { Cookie: await sessionCookieFor(buyer.id) } });
    const signedIn = await responseOf(() => successRoute.loader({ request, params: {}, context: CONTEXT }));
    expect(await signedIn.json()).toMatchObject({ outcome: "paid", user: { email } });
    // The same page signed out is for a buyer who may have no password yet.
    expect(await (await success(`?session_id=${sessionId}`)).json()).toMatchObject({ outcome: "paid", user: null });
  });
});

describe("the contact form", () => {
  const contact = (fields: Record<string, string>, context = freshContext()) =>
    responseOf(() => landing.action({ request: formRequest("/?index", { intent: "contact", ...fields }), params: {}, context }));

  test("an empty or blank message is refused with a clear error, and nothing is stored", async () => {
    const email = uniqueEmail("silent");
    const tries: Record<string, string>[] = [{ email }, { email, message: "" }, { email, message: "   \n  " }];
    for (const fields of tries) {
      const refused = await contact(fields);
      expect(refused.status).toBe(400);
      expect((await refused.json()).result.error.message).toEqual([CONTACT_MESSAGE_REQUIRED]);
    }
    expect(await db.$count(schema.contactMessages, eq(schema.contactMessages.email, email))).toBe(0);
  });

  test("needs an e-mail and a message; stores the message, e-mails the team and sets a thank-you toast", async () => {
    const staff = await createTestUser({ role: "team" });
    const email = uniqueEmail("visitor");
    const response = await contact({ email, message: "Can you help with TikTok?" });
    expect(response.status).toBe(200);
    expect(response.headers.get("Set-Cookie")).toContain("__toast");
    expect((await response.json()).sent).toBe(true);
    const [saved] = await db.select().from(schema.contactMessages).where(eq(schema.contactMessages.email, email));
    expect(saved).toMatchObject({ message: "Can you help with TikTok?", firstName: null });
    const notice = readOutbox(staff.email).find((mail) => mail.text.includes(email));
    // Answering the team's e-mail answers the visitor.
    expect(notice?.replyTo).toBe(email);
  });

  test("a missing or bad e-mail is refused; a filled honeypot stores nothing; the rate limit holds", async () => {
    const missing = await contact({ message: "hi" });
    expect(missing.status).toBe(400);
    expect((await missing.json()).result.error.email).toEqual(["Email is required"]);
    expect((await contact({ email: "nope", message: "Hello" })).status).toBe(400);
    const before = await db.$count(schema.contactMessages);
    expect((await contact({ email: uniqueEmail(), message: "Hello", website: "http://spam.example" })).status).toBe(400);
    expect(await db.$count(schema.contactMessages)).toBe(before);

    const context = freshContext();
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await contact({ email: uniqueEmail(), message: "Hello" }, context)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });
});
