import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";

import { claimStalePendingOrders, PENDING_ORDER_AGE_MS, sweepPendingOrders } from "~/models/pending-orders.server";
import * as purchaseRoute from "~/routes/api+/services+/purchase";
import * as checkoutRoute from "~/routes/checkout.[test].$sessionId";
import { db, schema } from "~/utils/db.server";

import { settle } from "../support/call-route";
import { CONTEXT, formRequest, freshContext, jsonRequest, seedServices, uniqueEmail } from "../support/payments-helpers";

/*
 * Orders stuck in pending with the built-in test checkout (no Stripe key): the order is the only
 * record of the checkout, and nobody pays anywhere but on our own page, so an order left pending
 * for an hour is expired, and its page then refuses to take the payment.
 */

let services: Awaited<ReturnType<typeof seedServices>>;
beforeAll(async () => {
  services = await seedServices();
});

async function placeOrder(ageMs: number) {
  const response = await purchaseRoute.action({
    request: jsonRequest("/api/services/purchase", {
      name: "Test Buyer",
      email: uniqueEmail("stuck-test"),
      services: [{ serviceId: services[0].id, pricingType: "one_time", quantity: 1 }],
    }),
    params: {},
    context: freshContext(),
  });
  const { sessionId } = ((await response.json()) as { data: { sessionId: string } }).data;
  const [order] = await db
    .update(schema.orders)
    .set({ createdAt: new Date(Date.now() - ageMs) })
    .where(eq(schema.orders.stripeSessionId, sessionId))
    .returning();
  return { sessionId, order: order! };
}

const statusOf = async (id: string) => (await db.select({ status: schema.orders.status }).from(schema.orders).where(eq(schema.orders.id, id)))[0]!.status;
const GOOD_CARD = { intent: "pay", cardNumber: "4242 4242 4242 4242", expiry: "12 / 39", cvc: "123", cardholder: "Test Buyer" };

describe("test checkout orders still pending after an hour", () => {
  test("are expired, and their checkout page then refuses the payment; a younger order can still be paid", async () => {
    const stale = await placeOrder(PENDING_ORDER_AGE_MS + 60_000);
    const young = await placeOrder(10 * 60_000);

    const counts = await sweepPendingOrders();
    expect(counts.expired).toBeGreaterThanOrEqual(1);
    expect(await statusOf(stale.order.id)).toBe("cancelled");
    expect(await statusOf(young.order.id)).toBe("pending");

    const pay = (sessionId: string) =>
      settle(() => checkoutRoute.action({ request: formRequest(`/checkout/test/${sessionId}`, GOOD_CARD), params: { sessionId }, context: CONTEXT }));
    const refused = await pay(stale.sessionId);
    expect(refused.status).toBe(409);
    expect(await statusOf(stale.order.id)).toBe("cancelled");
    const paid = await pay(young.sessionId);
    expect(paid.status).toBe(302);
    expect(await statusOf(young.order.id)).toBe("paid");
  });

  test("two claimers at once never take the same order", async () => {
    const orders = await Promise.all([1, 2, 3, 4].map(() => placeOrder(PENDING_ORDER_AGE_MS + 60_000)));
    const ids = new Set(orders.map((o) => o.order.id));
    const [a, b] = await Promise.all([claimStalePendingOrders(), claimStalePendingOrders()]);
    const mineA = a.map((o) => o.id).filter((id) => ids.has(id));
    const mineB = b.map((o) => o.id).filter((id) => ids.has(id));
    expect(mineA.filter((id) => mineB.includes(id))).toEqual([]);
    expect(new Set([...mineA, ...mineB])).toEqual(ids);
  });
});
