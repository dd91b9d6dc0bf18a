import { and, eq, inArray } from "drizzle-orm";
import { db, schema, type Tx } from "~/utils/db.server";
import { logger } from "~/utils/logger.server";
import type { Stripe } from "~/utils/stripe.server";
import { cancelCheckoutSession, fulfilCheckoutSession, recordStripeEvent, type StripeEventRef } from "./orders.server";
import { applyInvoice, syncSubscription } from "./subscriptions.server";

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

/** A full refund takes the order and its paid purchases out of revenue; a partial one is only logged. */
export async function refundCharge(charge: Stripe.Charge, event: StripeEventRef): Promise<WebhookOutcome> {
  const paymentIntentId = typeof charge.payment_intent === "string" ? charge.payment_intent : (charge.payment_intent?.id ?? null);
  return once(event, async (tx) => {
    if (!paymentIntentId) return "no-match";
    if (!charge.refunded) {
      logger.warn({ paymentIntentId, amountRefunded: charge.amount_refunded }, "partial refund: order left as paid");
      return "partial-refund";
    }
    const [order] = await tx
      .update(schema.orders)
      .set({ status: "refunded", updatedAt: new Date() })
      .where(and(eq(schema.orders.stripePaymentIntentId, paymentIntentId), eq(schema.orders.status, "paid")))
      .returning({ id: schema.orders.id });
    if (!order) return "no-match";
    await tx
      .update(schema.purchases)
      .set({ status: "refunded", updatedAt: new Date() })
      .where(and(eq(schema.purchases.orderId, order.id), inArray(schema.purchases.status, ["in_progress", "completed"])));
    return "refunded";
  });
}

export async function handleStripeEvent(event: Stripe.Event): Promise<WebhookOutcome> {
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
      return once(ref, (tx) => applyInvoice(tx, event.data.object, event.type === "invoice.paid"));
    default:
      return "ignored";
  }
}
