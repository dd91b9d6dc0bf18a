import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { pointAppAtFakeStripe, startFakeStripe } from "../fakes/stripe";
import { decodeEmail, emailsTo, freshContext, jsonRequest, seedServices, uniqueEmail } from "../support/payments-helpers";

/*
 * Real `stripe` SDK → local fake Stripe (STRIPE_API_URL). The settings must be in place before
 * env.server.ts is first imported, hence the dynamic imports below.
 */
const fake = await startFakeStripe();
pointAppAtFakeStripe(fake.url);

const { db, schema } = await import("~/utils/db.server");
const { eq } = await import("drizzle-orm");
const purchaseRoute = await import("~/routes/api+/services+/purchase");
const webhookRoute = await import("~/routes/api+/stripe.webhook");
const orders = await import("~/models/orders.server");

let services: Awaited<ReturnType<typeof seedServices>>;
beforeAll(async () => {
  services = await seedServices();
});
afterAll(() => fake.close());

async function order(body: unknown) {
  const response = await purchaseRoute.action({ request: jsonRequest("/api/services/purchase", body), params: {}, context: freshContext() });
  return { status: response.status, body: await response.json() };
}

async function deliver(type: string, object: Record<string, unknown>, options?: Parameters<typeof fake.event>[2]) {
  const { body, signature, id } = fake.event(type, object, options);
  const request = new Request("http://localhost/api/stripe/webhook", {
    method: "POST",
    headers: { "Stripe-Signature": signature, "Content-Type": "application/json" },
    body,
  });
  const response = await webhookRoute.action({ request, params: {}, context: freshContext() });
  return { status: response.status, body: await response.json(), id };
}

async function placeOrder(email = uniqueEmail(), picked = [services[0], services[2]]) {
  const result = await order({ name: "Morgan Lee", email, services: picked.map((s) => ({ serviceId: s.id, pricingType: "one_time", quantity: 1 })) });
  expect(result.status).toBe(200);
  const sessionId: string = result.body.data.sessionId;
  const [row] = await db.select().from(schema.orders).where(eq(schema.orders.stripeSessionId, sessionId));
  return { email, sessionId, order: row, checkoutUrl: result.body.data.checkoutUrl as string };
}

const purchasesOf = (orderId: string) => db.select().from(schema.purchases).where(eq(schema.purchases.orderId, orderId));
const orderById = async (id: string) => (await db.select().from(schema.orders).where(eq(schema.orders.id, id)))[0];
const confirmations = (email: string) => emailsTo(email).filter((m) => m.includes("Your BrandLift order is confirmed"));

describe("ordering through Stripe Checkout", () => {
  test("creates a pending order priced from the catalogue and a session with the contract's parameters", async () => {
    const email = uniqueEmail();
    const [first, second] = services;
    const result = await order({
      name: "  Morgan Lee ",
      email,
      services: [
        { serviceId: first.id, pricingType: "one_time", quantity: 1, price: 0.01 },
        { serviceId: second.id, pricingType: "one_time", quantity: 1 },
      ],
      price: 1,
    });
    expect(result.status).toBe(200);
    expect(result.body).toEqual({
      success: true,
      data: { checkoutUrl: expect.stringContaining("https://checkout.stripe.test/"), sessionId: expect.stringMatching(/^cs_test_/) },
    });

    const request = fake.requests.findLast((r) => r.path === "/v1/checkout/sessions")!;
    const [row] = await db.select().from(schema.orders).where(eq(schema.orders.stripeSessionId, result.body.data.sessionId));
    expect(row).toMatchObject({ status: "pending", name: "Morgan Lee", email, totalCents: first.priceCents + second.priceCents });
    expect(request.idempotencyKey).toBe(`checkout-${row.id}`);
    expect(request.params).toMatchObject({
      mode: "payment",
      customer_email: email,
      client_reference_id: row.id,
      success_url: "http://shop.example.test/purchase/success?session_id={CHECKOUT_SESSION_ID}",
      cancel_url: `http://shop.example.test/purchase/cancel?order=${row.id}`,
      invoice_creation: { enabled: "true" },
      customer_creation: "always",
      metadata: { orderId: row.id },
      line_items: [
        { quantity: "1", price_data: { currency: "usd", unit_amount: String(first.priceCents), product_data: { name: first.name } } },
        { quantity: "1", price_data: { currency: "usd", unit_amount: String(second.priceCents), product_data: { name: second.name } } },
      ],
    });
    const purchases = await purchasesOf(row.id);
    expect(purchases.map((p) => [p.status, p.amountCents, p.userId])).toEqual(
      expect.arrayContaining([
        ["pending", first.priceCents, null],
        ["pending", second.priceCents, null],
      ]),
    );
  });

  test.each([
    ["an unknown service id", { services: [{ serviceId: "00000000-0000-4000-8000-000000000000", pricingType: "one_time", quantity: 1 }] }, /not available/],
    ["a service id that is not a uuid", { services: [{ serviceId: "abc", pricingType: "one_time", quantity: 1 }] }, /not available/],
    ["an empty list", { services: [] }, "Please select at least one service."],
    ["a quantity of 2", { services: [{ pricingType: "one_time", quantity: 2 }] }, "quantity must be 1."],
    ["a recurring pricing type", { services: [{ pricingType: "recurring", quantity: 1 }] }, 'pricingType must be "one_time".'],
    ["a blank name", { name: "   " }, "Name is required"],
    ["a bad e-mail", { email: "not-an-email" }, "Invalid email address"],
    ["a missing e-mail", { email: undefined }, "Email is required"],
  ])("refuses %s with a 400 and stores nothing", async (_label, patch, message) => {
    const before = await db.$count(schema.orders);
    const line = { serviceId: services[0].id, pricingType: "one_time", quantity: 1 };
    const base = { name: "Morgan Lee", email: uniqueEmail(), services: [line] };
    const services_ = (patch as { services?: object[] }).services?.map((s) => ({ ...line, ...s }));
    const result = await order({ ...base, ...patch, ...(services_ ? { services: services_ } : {}) });
    expect(result.status).toBe(400);
    expect(result.body).toMatchObject({ success: false, status: "error", code: expect.any(String) });
    if (typeof message === "string") expect(result.body.message).toBe(message);
    else expect(result.body.message).toMatch(message);
    expect(result.body.error).toBe(result.body.message);
    expect(await db.$count(schema.orders)).toBe(before);
  });

  test("refuses an inactive service", async () => {
    const [inactive] = await db
      .insert(schema.services)
      .values({ slug: `retired-${Date.now()}`, name: "Retired", priceCents: 100, active: false })
      .returning();
    const result = await order({ name: "A", email: uniqueEmail(), services: [{ serviceId: inactive.id, pricingType: "one_time", quantity: 1 }] });
    expect(result.status).toBe(400);
  });

  test("Stripe failing leaves the order pending with no session and says 'Network error. Please try again.'", async () => {
    fake.failNext(500, 3);
    const email = uniqueEmail();
    const result = await order({ name: "Net Fail", email, services: [{ serviceId: services[1].id, pricingType: "one_time", quantity: 1 }] });
    expect(result.status).toBe(502);
    expect(result.body).toMatchObject({ success: false, message: "Network error. Please try again." });
    const [row] = await db.select().from(schema.orders).where(eq(schema.orders.email, email));
    expect(row).toMatchObject({ status: "pending", stripeSessionId: null });
    expect((await purchasesOf(row.id)).every((p) => p.status === "pending")).toBe(true);
  }, 30_000);

  test("the landing form shows the same message inline when Stripe fails, and redirects to Stripe when it works", async () => {
    const landing = await import("~/routes/_index");
    const { formRequest } = await import("../support/payments-helpers");
    const submit = () =>
      landing.action({
        request: formRequest("/?index", { intent: "order", name: "Form Buyer", email: uniqueEmail(), services: services[2].id }),
        params: {},
        context: freshContext(),
      });
    fake.failNext(503, 3);
    const failed = (await submit()) as unknown as { data: { formError: string }; init: { status: number } };
    expect(failed.init.status).toBe(502);
    expect(failed.data.formError).toBe("Network error. Please try again.");
    const redirected = (await submit()) as Response;
    expect(redirected.status).toBe(302);
    expect(redirected.headers.get("Location")).toMatch(/^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_/);
  }, 30_000);

  test("a session without a URL gives 'Checkout URL not found. Please try again.'", async () => {
    fake.omitUrlNext();
    const result = await order({ name: "No Url", email: uniqueEmail(), services: [{ serviceId: services[1].id, pricingType: "one_time", quantity: 1 }] });
    expect(result.status).toBe(502);
    expect(result.body.message).toBe("Checkout URL not found. Please try again.");
  });
});

describe("the webhook", () => {
  test("checkout.session.completed fulfils: purchases in progress, account created, both e-mails sent", async () => {
    const { email, sessionId, order: row } = await placeOrder();
    const session = fake.complete(sessionId);
    const delivery = await deliver("checkout.session.completed", session);
    expect(delivery).toMatchObject({ status: 200, body: { received: true } });

    const paid = await orderById(row.id);
    expect(paid).toMatchObject({ status: "paid", stripePaymentIntentId: session.payment_intent, stripeCustomerId: session.customer });
    const [account] = await db.select().from(schema.users).where(eq(schema.users.email, email));
    expect(account).toMatchObject({ role: "user", name: "Morgan Lee", passwordHash: null });
    expect(paid.userId).toBe(account.id);
    const purchases = await purchasesOf(row.id);
    expect(purchases.every((p) => p.status === "in_progress" && p.userId === account.id)).toBe(true);

    const confirmation = decodeEmail(confirmations(email)[0] ?? "");
    expect(confirmation).toContain(services[0].name);
    expect(confirmation).toContain("within 24 hours");
    expect(confirmation).toContain(`Total: $${(row.totalCents / 100).toFixed(2)}`);
    expect(emailsTo(email).some((m) => decodeEmail(m).includes("/reset-password?token="))).toBe(true);
    // The team's notice opens the order itself.
    const notice = emailsTo("orders-inbox@brandlift.test")
      .map(decodeEmail)
      .find((m) => m.includes(email));
    expect(notice).toContain(`Open the order: http://shop.example.test/dashboard/orders/${row.id}`);
    const [event] = await db.select().from(schema.stripeEvents).where(eq(schema.stripeEvents.id, delivery.id));
    expect(event.type).toBe("checkout.session.completed");
  });

  test("the same event twice, and two deliveries at once, fulfil once", async () => {
    const { email, sessionId } = await placeOrder();
    const session = fake.complete(sessionId);
    const { body, signature } = fake.event("checkout.session.completed", session, { id: `evt_dup_${Date.now()}` });
    const send = () =>
      webhookRoute.action({
        request: new Request("http://localhost/api/stripe/webhook", {
          method: "POST",
          headers: { "Stripe-Signature": signature, "Content-Type": "application/json" },
          body,
        }),
        params: {},
        context: freshContext(),
      });
    const responses = await Promise.all([send(), send(), deliver("checkout.session.completed", session)]);
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200]);
    expect((await send()).status).toBe(200);
    expect(confirmations(email)).toHaveLength(1);
    expect(await db.$count(schema.users, eq(schema.users.email, email))).toBe(1);
  });

  test("completed while unpaid does nothing; async_payment_succeeded then fulfils, once", async () => {
    const { email, sessionId, order: row } = await placeOrder();
    const unpaid = fake.complete(sessionId, "unpaid");
    expect((await deliver("checkout.session.completed", unpaid)).status).toBe(200);
    expect((await orderById(row.id)).status).toBe("pending");
    expect(confirmations(email)).toHaveLength(0);

    const paid = { ...unpaid, payment_status: "paid" };
    expect((await deliver("checkout.session.async_payment_succeeded", paid)).status).toBe(200);
    expect((await deliver("checkout.session.async_payment_succeeded", paid)).status).toBe(200);
    expect((await orderById(row.id)).status).toBe("paid");
    expect(confirmations(email)).toHaveLength(1);
  });

  test("async_payment_failed marks the order failed and its purchases cancelled", async () => {
    const { sessionId, order: row } = await placeOrder();
    await deliver("checkout.session.async_payment_failed", fake.complete(sessionId, "unpaid"));
    expect((await orderById(row.id)).status).toBe("failed");
    expect((await purchasesOf(row.id)).every((p) => p.status === "cancelled")).toBe(true);
  });

  test("checkout.session.expired cancels a pending order, and never a paid one", async () => {
    const { sessionId, order: row } = await placeOrder();
    await deliver("checkout.session.expired", { ...fake.sessions.get(sessionId)!, status: "expired" });
    expect((await orderById(row.id)).status).toBe("cancelled");
    expect((await purchasesOf(row.id)).every((p) => p.status === "cancelled")).toBe(true);

    const paid = await placeOrder();
    const session = fake.complete(paid.sessionId);
    await deliver("checkout.session.completed", session);
    await deliver("checkout.session.expired", session);
    expect((await orderById(paid.order.id)).status).toBe("paid");
  });

  test("charge.refunded refunds the order and its purchases, which leave revenue", async () => {
    const { sessionId, order: row } = await placeOrder();
    const session = fake.complete(sessionId);
    await deliver("checkout.session.completed", session);
    const { getTeamCounts } = await import("~/models/stats.server");
    const revenue = async () => (await getTeamCounts()).totalRevenueCents;
    const before = await revenue();
    const charge = {
      id: "ch_1",
      object: "charge",
      payment_intent: session.payment_intent,
      amount: row.totalCents,
      amount_refunded: row.totalCents,
      refunded: true,
    };
    expect((await deliver("charge.refunded", charge)).status).toBe(200);
    expect((await orderById(row.id)).status).toBe("refunded");
    expect((await purchasesOf(row.id)).every((p) => p.status === "refunded")).toBe(true);
    expect(await revenue()).toBe(before - row.totalCents);
  });

  test("a bad signature or a stale timestamp is a 400 and fulfils nothing; an unknown type is ignored", async () => {
    const { sessionId, order: row } = await placeOrder();
    const session = fake.complete(sessionId);
    expect((await deliver("checkout.session.completed", session, { secret: "whsec_wrong" })).status).toBe(400);
    const stale = await deliver("checkout.session.completed", session, { timestamp: Math.floor(Date.now() / 1000) - 3600 });
    expect(stale).toMatchObject({ status: 400, body: { success: false, code: "BAD_SIGNATURE" } });
    const unsigned = await webhookRoute.action({
      request: new Request("http://localhost/api/stripe/webhook", { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" }),
      params: {},
      context: freshContext(),
    });
    expect(unsigned.status).toBe(400);
    expect((await orderById(row.id)).status).toBe("pending");
    expect(await deliver("customer.created", { id: "cus_1", object: "customer" })).toMatchObject({ status: 200, body: { received: true } });
  });
});

describe("the success page and the webhook share one fulfilment", () => {
  test("the success page fulfils from session_id; the later webhook changes nothing", async () => {
    const successRoute = await import("~/routes/purchase.success");
    const { email, sessionId, order: row } = await placeOrder();
    fake.complete(sessionId);
    const response = await successRoute.loader({
      request: new Request(`http://localhost/purchase/success?session_id=${sessionId}`),
      params: {},
      context: freshContext(),
    });
    const data = (response as { data?: unknown }).data ?? response;
    expect(data).toMatchObject({ order: { status: "paid", totalCents: row.totalCents } });
    expect((await orderById(row.id)).status).toBe("paid");
    await deliver("checkout.session.completed", fake.sessions.get(sessionId)!);
    expect(confirmations(email)).toHaveLength(1);
  });
});

describe("the built-in test checkout", () => {
  test("does not exist while a Stripe key is set", async () => {
    const checkoutRoute = await import("~/routes/checkout.[test].$sessionId");
    const { sessionId } = await placeOrder();
    const args = { params: { sessionId }, context: freshContext() };
    const thrown = await checkoutRoute.loader({ request: new Request(`http://localhost/checkout/test/${sessionId}`), ...args }).catch((e: unknown) => e);
    expect((thrown as Response).status).toBe(404);
    const body = new URLSearchParams({ intent: "pay", cardNumber: "4242424242424242", expiry: "12/39", cvc: "123", cardholder: "X" });
    const paid = await checkoutRoute
      .action({ request: new Request(`http://localhost/checkout/test/${sessionId}`, { method: "POST", body }), ...args })
      .catch((e: unknown) => e);
    expect((paid as Response).status).toBe(404);
    expect((await db.select().from(schema.orders).where(eq(schema.orders.stripeSessionId, sessionId)))[0].status).toBe("pending");
  });
});

describe("plans", () => {
  test("a plan is a monthly subscription session that the webhooks keep current", async () => {
    const { createPlanOrder, getActiveSubscription } = orders;
    const email = uniqueEmail("planner");
    const started = await createPlanOrder({ name: "Pat Plan", email }, "pro");
    const request = fake.requests.findLast((r) => r.path === "/v1/checkout/sessions")!;
    expect(request.params).toMatchObject({
      mode: "subscription",
      customer_email: email,
      line_items: [{ quantity: "1", price_data: { unit_amount: "15900", recurring: { interval: "month" } } }],
    });
    expect(request.params).not.toHaveProperty("invoice_creation");
    expect(request.params).not.toHaveProperty("customer_creation");

    const session = fake.complete(started.sessionId);
    await deliver("checkout.session.completed", session);
    const [account] = await db.select().from(schema.users).where(eq(schema.users.email, email));
    expect(await getActiveSubscription(account.id)).toMatchObject({ planId: "pro", title: "PRO PACKAGE", price: 159, status: "active" });

    const periodEnd = Math.floor(Date.now() / 1000) + 30 * 86400;
    const subscription = {
      id: session.subscription,
      object: "subscription",
      status: "active",
      cancel_at_period_end: true,
      customer: session.customer,
      metadata: { orderId: started.orderId },
      items: { data: [{ current_period_end: periodEnd }] },
    };
    await deliver("customer.subscription.updated", subscription);
    expect(await getActiveSubscription(account.id)).toMatchObject({ cancelAtPeriodEnd: true, currentPeriodEnd: new Date(periodEnd * 1000) });
    await deliver("invoice.payment_failed", { id: "in_1", object: "invoice", parent: { subscription_details: { subscription: session.subscription } } });
    expect((await getActiveSubscription(account.id))?.status).toBe("past_due");
    await deliver("invoice.paid", {
      id: "in_2",
      object: "invoice",
      parent: { subscription_details: { subscription: session.subscription } },
      lines: { data: [{ period: { end: periodEnd } }] },
    });
    expect((await getActiveSubscription(account.id))?.status).toBe("active");
    await deliver("customer.subscription.deleted", { ...subscription, status: "canceled" });
    expect(await getActiveSubscription(account.id)).toBeNull();
  });
});
