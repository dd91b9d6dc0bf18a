import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { pointAppAtFakeStripe, startFakeStripe } from "../fakes/stripe";
import { emailsTo, freshContext, jsonRequest, seedServices, uniqueEmail } from "../support/payments-helpers";

/*
 * Orders stuck in pending (decision 241) through the real `stripe` SDK and the local fake Stripe:
 * a paid order whose webhook never came is completed, an abandoned one is expired at Stripe and
 * here, a young one is left alone, and two nodes sweeping at once ask Stripe once per order.
 */
const fake = await startFakeStripe();
pointAppAtFakeStripe(fake.url);

const { db, schema } = await import("~/utils/db.server");
const { eq } = await import("drizzle-orm");
const purchaseRoute = await import("~/routes/api+/services+/purchase");
const webhookRoute = await import("~/routes/api+/stripe.webhook");
const { claimStalePendingOrders, sweepPendingOrders, PENDING_ORDER_AGE_MS, PENDING_RECHECK_MS } = await import("~/models/pending-orders.server");

let services: Awaited<ReturnType<typeof seedServices>>;
beforeAll(async () => {
  services = await seedServices();
});
afterAll(() => fake.close());

/** An order through the API, then made `ageMs` old (as if placed that long ago). */
async function placeOrder(ageMs = PENDING_ORDER_AGE_MS + 60_000) {
  const email = uniqueEmail("stuck");
  const response = await purchaseRoute.action({
    request: jsonRequest("/api/services/purchase", {
      name: "Stuck Buyer",
      email,
      services: [{ serviceId: services[0].id, pricingType: "one_time", quantity: 1 }],
    }),
    params: {},
    context: freshContext(),
  });
  expect(response.status).toBe(200);
  const { sessionId } = ((await response.json()) as { data: { sessionId: string } }).data;
  const [order] = await db
    .update(schema.orders)
    .set({ createdAt: new Date(Date.now() - ageMs) })
    .where(eq(schema.orders.stripeSessionId, sessionId))
    .returning();
  return { email, sessionId, order: order! };
}

const orderById = async (id: string) => (await db.select().from(schema.orders).where(eq(schema.orders.id, id)))[0]!;
const purchasesOf = (orderId: string) => db.select().from(schema.purchases).where(eq(schema.purchases.orderId, orderId));
const confirmations = (email: string) => emailsTo(email).filter((m) => m.includes("Your BrandLift order is confirmed"));
const asked = (sessionId: string) => fake.requests.filter((r) => r.method === "GET" && r.path === `/v1/checkout/sessions/${sessionId}`).length;
const expireRequests = (sessionId: string) => fake.requests.filter((r) => r.path === `/v1/checkout/sessions/${sessionId}/expire`).length;

async function deliverCompleted(sessionId: string) {
  const { body, signature } = fake.event("checkout.session.completed", fake.sessions.get(sessionId)!);
  const request = new Request("http://localhost/api/stripe/webhook", {
    method: "POST",
    headers: { "Stripe-Signature": signature, "Content-Type": "application/json" },
    body,
  });
  return webhookRoute.action({ request, params: {}, context: freshContext() });
}

describe("orders still pending after an hour", () => {
  test("a paid order whose webhook never arrived is completed once, as the webhook would; the late webhook changes nothing", async () => {
    const { email, sessionId, order } = await placeOrder();
    fake.complete(sessionId);

    const counts = await sweepPendingOrders();
    expect(counts.fulfilled).toBeGreaterThanOrEqual(1);
    const after = await orderById(order.id);
    expect(after).toMatchObject({ status: "paid", stripePaymentIntentId: fake.sessions.get(sessionId)!.payment_intent });
    expect(after.userId).toBeTruthy();
    expect((await purchasesOf(order.id)).map((p) => p.status)).toEqual(["in_progress"]);
    expect(confirmations(email)).toHaveLength(1);

    const late = await deliverCompleted(sessionId);
    expect(late.status).toBe(200);
    expect(confirmations(email)).toHaveLength(1);
    expect((await orderById(order.id)).status).toBe("paid");
  });

  test("an abandoned checkout is expired at Stripe first, then here (API status expired), and can no longer be paid", async () => {
    const { sessionId, order } = await placeOrder();
    await sweepPendingOrders();
    expect(expireRequests(sessionId)).toBe(1);
    expect(fake.sessions.get(sessionId)!.status).toBe("expired");
    expect((await orderById(order.id)).status).toBe("cancelled");
    expect((await purchasesOf(order.id)).map((p) => p.status)).toEqual(["cancelled"]);
  });

  test("a session Stripe already expired cancels the order without asking Stripe to expire it", async () => {
    const { sessionId, order } = await placeOrder();
    fake.sessions.get(sessionId)!.status = "expired";
    await sweepPendingOrders();
    expect(expireRequests(sessionId)).toBe(0);
    expect((await orderById(order.id)).status).toBe("cancelled");
  });

  test("paid at the moment we expire it: Stripe refuses, and the order is completed instead", async () => {
    const { email, sessionId, order } = await placeOrder();
    fake.beforeNextExpire((id) => fake.complete(id));
    await sweepPendingOrders();
    expect(fake.sessions.get(sessionId)).toMatchObject({ status: "complete", payment_status: "paid" });
    expect((await orderById(order.id)).status).toBe("paid");
    expect(confirmations(email)).toHaveLength(1);
  });

  test("an order younger than an hour is left alone and Stripe is not asked", async () => {
    const { sessionId, order } = await placeOrder(PENDING_ORDER_AGE_MS - 60_000);
    await sweepPendingOrders();
    expect(asked(sessionId)).toBe(0);
    expect((await orderById(order.id)).status).toBe("pending");
  });

  test("a payment still settling (complete, unpaid) stays pending and is asked again only after the re-check interval", async () => {
    const { sessionId, order } = await placeOrder();
    fake.complete(sessionId, "unpaid");
    const now = new Date();
    await sweepPendingOrders(now);
    expect(asked(sessionId)).toBe(1);
    expect((await orderById(order.id)).status).toBe("pending");

    await sweepPendingOrders(new Date(now.getTime() + 60_000));
    expect(asked(sessionId)).toBe(1);
    await sweepPendingOrders(new Date(now.getTime() + PENDING_RECHECK_MS + 60_000));
    expect(asked(sessionId)).toBe(2);
    expect(expireRequests(sessionId)).toBe(0);
  });

  test("Stripe unreachable: the order stays pending and is tried again later", async () => {
    const { sessionId, order } = await placeOrder();
    fake.sessions.delete(sessionId);
    const counts = await sweepPendingOrders();
    expect(counts.unreachable).toBeGreaterThanOrEqual(1);
    expect((await orderById(order.id)).status).toBe("pending");
  });

  test("two nodes sweeping at once: each order is claimed by one, asked about once, completed or expired once", async () => {
    const paid = await Promise.all([placeOrder(), placeOrder(), placeOrder()]);
    const abandoned = await Promise.all([placeOrder(), placeOrder(), placeOrder()]);
    for (const { sessionId } of paid) fake.complete(sessionId);

    const now = new Date();
    const [first, second] = await Promise.all([claimStalePendingOrders(now), claimStalePendingOrders(now)]);
    const mine = new Set([...paid, ...abandoned].map((o) => o.order.id));
    const firstIds = first.map((o) => o.id).filter((id) => mine.has(id));
    const secondIds = second.map((o) => o.id).filter((id) => mine.has(id));
    expect(firstIds.filter((id) => secondIds.includes(id))).toEqual([]);
    expect(new Set([...firstIds, ...secondIds])).toEqual(mine);

    // Claimed orders are not claimed again: whole sweeps racing now find nothing of ours to do.
    await Promise.all([sweepPendingOrders(now), sweepPendingOrders(now)]);
    for (const { sessionId } of [...paid, ...abandoned]) expect(asked(sessionId)).toBe(0);

    // Once the claims are old enough, two sweeps race over the same orders.
    const later = new Date(now.getTime() + PENDING_RECHECK_MS + 60_000);
    await Promise.all([sweepPendingOrders(later), sweepPendingOrders(later)]);
    for (const { sessionId, order, email } of paid) {
      expect(asked(sessionId)).toBe(1);
      expect((await orderById(order.id)).status).toBe("paid");
      expect(confirmations(email)).toHaveLength(1);
    }
    for (const { sessionId, order } of abandoned) {
      expect(asked(sessionId)).toBe(1);
      expect(expireRequests(sessionId)).toBe(1);
      expect((await orderById(order.id)).status).toBe("cancelled");
    }
  });
});
