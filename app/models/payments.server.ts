import crypto from "node:crypto";
import { eq } from "drizzle-orm";

import { db, schema, type Tx } from "~/utils/db.server";
import type { Stripe } from "~/utils/stripe.server";

import { cancelCheckoutSession, fulfilCheckoutSession, recordStripeEvent, type StripeEventRef } from "./orders.server";
import { applyChargeRefund, prepareChargeRefund, sendRefundEmail } from "./refunds.server";
import { endPlanOfRefundedOrder } from "./subscriptions-staff.server";
import { applyInvoice, sendPaymentFailedEmail, syncSubscription } from "./subscriptions.server";

/*
 * The webhook's dispatcher. Every effect runs in one transaction with the insert of the event id,
 * so a redelivered event (or two deliveries at once) has its effect exactly once.
 */

export type WebhookOutcome = string;

async function once(event: StripeEventRef, effect: (tx: Tx) => Promise<unknown>): Promise<WebhookOutcome> {
  return db.transaction(async (tx) => {
    if (!(await recordStripeEvent(tx, event))) return "duplicate-event";
    const result = await effect(tx);
    return typeof result === "string" ? result : result ? "applied" : "no-match";
  });
}

/**
 * charge.refunded: the order's refunds converge with the dashboard's (app/models/refunds.server.ts,
 * docs/decisions/090); full or partial, revenue drops by what was refunded. The customer is
 * e-mailed about money refunded outside the app (the dashboard's button sends its own e-mail).
 */
export async function refundCharge(charge: Stripe.Charge, event: StripeEventRef): Promise<WebhookOutcome> {
  const plan = await prepareChargeRefund(charge);
  let added = 0;
  const outcome = await once(event, async (tx) => {
    // A renewal's charge is its renewal order's (decision 175), found like any order's.
    if (!plan) return "no-match";
    added = await applyChargeRefund(tx, charge, plan);
    return "refunded";
  });
  if (plan && outcome === "refunded") {
    const [order] = await db.select().from(schema.orders).where(eq(schema.orders.id, plan.order.id));
    if (added > 0) await sendRefundEmail(order, added);
    // A plan's sign-up refunded in full (here or in Stripe's dashboard): the plan ends.
    await endPlanOfRefundedOrder(order);
  }
  return outcome;
}

/** invoice.paid / invoice.payment_failed; the failed-payment e-mail goes out after the commit. */
async function handleInvoice(invoice: Stripe.Invoice, event: StripeEventRef, paid: boolean): Promise<WebhookOutcome> {
  const result = await db.transaction(async (tx) => {
    if (!(await recordStripeEvent(tx, event))) return { outcome: "duplicate-event" as const, notify: undefined };
    return applyInvoice(tx, invoice, paid);
  });
  if (result.notify) await sendPaymentFailedEmail(result.notify);
  return result.outcome;
}

/** What the dispatcher reads of a Stripe event: its id, its type and the object it is about. */
export type StripeEventIn = Stripe.Event extends infer E
  ? E extends Stripe.Event
    ? { id: string; type: E["type"]; data: { object: E["data"]["object"] } }
    : never
  : never;

/**
 * Test mode's stand-in for a webhook (billing's test page, a plan switch): a Stripe-shaped object
 * handed to the dispatcher under a fresh event id, so both modes run the same code.
 */
export function deliverTestEvent(type: StripeEventIn["type"], object: object): Promise<WebhookOutcome> {
  // The object holds only the fields the handlers read, where Stripe's type is the whole API object.
  const event = { id: `evt_test_${crypto.randomBytes(12).toString("hex")}`, type, data: { object } } as unknown as StripeEventIn;
  return handleStripeEvent(event);
}

export async function handleStripeEvent(event: StripeEventIn): Promise<WebhookOutcome> {
  const ref = { id: event.id, type: event.type };
  switch (event.type) {
    case "checkout.session.completed":
    case "checkout.session.async_payment_succeeded":
      // completed with payment_status "unpaid" (a delayed method) only records the event.
      return fulfilCheckoutSession(event.data.object, ref);
    case "checkout.session.async_payment_failed":
      return cancelCheckoutSession(event.data.object, ref, "failed");
    case "checkout.session.expired":
      return cancelCheckoutSession(event.data.object, ref);
    case "charge.refunded":
      return refundCharge(event.data.object, ref);
    case "customer.subscription.created":
    case "customer.subscription.updated":
    case "customer.subscription.deleted":
      return once(ref, (tx) => syncSubscription(tx, event.data.object, event.type === "customer.subscription.deleted"));
    case "invoice.paid":
    case "invoice.payment_failed":
      return handleInvoice(event.data.object, ref, event.type === "invoice.paid");
    default:
      return "ignored";
  }
}
