import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { pointAppAtFakeStripe, startFakeStripe } from "../fakes/stripe";
import { readOutbox } from "../support/outbox";
import { freshContext, jsonRequest, uniqueEmail } from "../support/requests";

/*
 * Refunds through Stripe: the real `stripe` SDK talks to the local fake (STRIPE_API_URL). The
 * dashboard's refund and Stripe's charge.refunded converge on one record per refund, whichever
 * comes first, however often the event is delivered; a refund made in Stripe's own dashboard is
 * recorded from the event; a refused refund gives the money back to the order.
 */
const fake = await startFakeStripe();
pointAppAtFakeStripe(fake.url);

const { eq } = await import("drizzle-orm");
const { db, schema } = await import("~/utils/db.server");
const { catalogue, createAccount } = await import("../support/factories");
const { call, readJson } = await import("../support/dashboard-helpers");
const purchaseRoute = await import("~/routes/api+/services+/purchase");
const webhookRoute = await import("~/routes/api+/stripe.webhook");
const refundRoute = await import("~/routes/api+/orders.$id.refund");
const { getTeamCounts } = await import("~/models/stats.server");

let staff: Awaited<ReturnType<typeof createAccount>>;
let services: Awaited<ReturnType<typeof catalogue>>;
beforeAll(async () => {
  services = await catalogue();
  staff = await createAccount({ role: "team" });
});
afterAll(() => fake.close());

async function deliver(type: string, object: Record<string, unknown>) {
  const { body, signature } = fake.event(type, object);
  const request = new Request("http://localhost/api/stripe/webhook", {
    method: "POST",
    headers: { "Stripe-Signature": signature, "Content-Type": "application/json" },
    body,
  });
  const response = await webhookRoute.action({ request, params: {}, context: freshContext() });
  return response.status;
}

/** An order paid through Checkout: the fake completes the session and the webhook fulfils it. */
async function paidOrder(email = uniqueEmail("stripe-refund")) {
  const response = await purchaseRoute.action({
    request: jsonRequest("/api/services/purchase", {
      name: "Sam Stripe",
      email,
      services: [services[0], services[2]].map((s) => ({ serviceId: s.id, pricingType: "one_time", quantity: 1 })),
    }),
    params: {},
    context: freshContext(),
  });
  const { data } = (await response.json()) as { data: { sessionId: string } };
  const session = fake.complete(data.sessionId);
  expect(await deliver("checkout.session.completed", session)).toBe(200);
  const [order] = await db.select().from(schema.orders).where(eq(schema.orders.stripeSessionId, data.sessionId));
  expect(order.status).toBe("paid");
  return { order, paymentIntent: session.payment_intent as string, email };
}

const refund = (orderId: string, body: unknown) =>
  call(refundRoute.action, `/api/orders/${orderId}/refund`, {
    auth: staff,
    method: "POST",
    body: JSON.stringify(body),
    params: { id: orderId },
    headers: { "Content-Type": "application/json" },
  });
const orderById = async (id: string) => (await db.select().from(schema.orders).where(eq(schema.orders.id, id)))[0];
const refundsOf = (orderId: string) => db.select().from(schema.refunds).where(eq(schema.refunds.orderId, orderId));
const revenueCents = async () => (await getTeamCounts()).totalRevenueCents;

describe("refunds with a Stripe key", () => {
  test("the dashboard's partial refund goes through Stripe's refunds API; charge.refunded after it changes nothing", async () => {
    const { order, paymentIntent, email } = await paidOrder();
    const before = await revenueCents();
    const response = await refund(order.id, { amount: 10 });
    expect(response.status).toBe(200);
    expect(await readJson(response)).toMatchObject({ status: "success", data: { status: "partially_refunded", refunded: 10 } });

    const call = fake.requests.findLast((r) => r.path === "/v1/refunds" && r.method === "POST")!;
    const [row] = await refundsOf(order.id);
    expect(call.params).toMatchObject({ payment_intent: paymentIntent, amount: "1000", metadata: { orderId: order.id, refundId: row.id } });
    expect(call.idempotencyKey).toBe(`refund-${row.id}`);
    expect(row).toMatchObject({ status: "succeeded", source: "dashboard", amountCents: 1000, stripeRefundId: expect.stringMatching(/^re_/) });
    expect(await revenueCents()).toBe(before - 1000);

    // Stripe's event for the same refund, delivered twice (two event ids): still one refund.
    expect(await deliver("charge.refunded", fake.chargeFor(paymentIntent))).toBe(200);
    expect(await deliver("charge.refunded", fake.chargeFor(paymentIntent))).toBe(200);
    expect(await refundsOf(order.id)).toHaveLength(1);
    expect(await orderById(order.id)).toMatchObject({ status: "partially_refunded", refundedCents: 1000 });
    expect(await revenueCents()).toBe(before - 1000);
    expect(readOutbox(email).filter((m) => m.subject.includes("refund"))).toHaveLength(1);
  });

  test("the event arriving while the button's call is under way lands on the button's row", async () => {
    const { order, paymentIntent } = await paidOrder();
    // The button's reservation, and Stripe's refund carrying its id, before the button records the answer.
    const [pending] = await db
      .insert(schema.refunds)
      .values({ orderId: order.id, amountCents: 500, status: "pending", source: "dashboard", createdById: staff.id })
      .returning();
    await db.update(schema.orders).set({ refundedCents: 500 }).where(eq(schema.orders.id, order.id));
    const { stripe } = await import("~/utils/stripe.server");
    const created = await stripe!.refunds.create({ payment_intent: paymentIntent, amount: 500, metadata: { orderId: order.id, refundId: pending.id } });
    expect(await deliver("charge.refunded", fake.chargeFor(paymentIntent))).toBe(200);
    const rows = await refundsOf(order.id);
    expect(rows).toEqual([expect.objectContaining({ id: pending.id, stripeRefundId: created.id, status: "succeeded" })]);
    expect(await orderById(order.id)).toMatchObject({ status: "partially_refunded", refundedCents: 500 });
  });

  test("a refund made in Stripe's dashboard is recorded from charge.refunded and the customer is told", async () => {
    const { order, paymentIntent, email } = await paidOrder();
    const before = await revenueCents();
    const outside = fake.refundOutside(paymentIntent, 700);
    expect(await deliver("charge.refunded", fake.chargeFor(paymentIntent))).toBe(200);
    expect(await refundsOf(order.id)).toEqual([
      expect.objectContaining({ source: "stripe", amountCents: 700, stripeRefundId: outside.id, status: "succeeded" }),
    ]);
    expect(await revenueCents()).toBe(before - 700);
    expect(readOutbox(email).map((m) => m.subject)).toContain("A refund of $7.00 is on its way");

    // The rest from the dashboard: Stripe is asked for what is left, the order is refunded.
    const rest = await refund(order.id, {});
    expect(await readJson(rest)).toMatchObject({ data: { status: "refunded", refunded: order.totalCents / 100 } });
    expect(fake.requests.findLast((r) => r.path === "/v1/refunds" && r.method === "POST")!.params.amount).toBe(String(order.totalCents - 700));
    expect(await revenueCents()).toBe(before - order.totalCents);
  });

  test("Stripe refusing the refund: 502 with its reason, the money stays on the order", async () => {
    const { order } = await paidOrder();
    const before = await revenueCents();
    fake.failRefundsNext(400);
    const response = await refund(order.id, { amount: 5 });
    expect(response.status).toBe(502);
    expect((await readJson<{ message: string }>(response)).message).toContain("Stripe could not refund this payment");
    expect(await orderById(order.id)).toMatchObject({ status: "paid", refundedCents: 0 });
    expect(await refundsOf(order.id)).toEqual([expect.objectContaining({ status: "failed" })]);
    expect(await revenueCents()).toBe(before);
  });
});
