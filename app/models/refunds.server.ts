import { and, eq, inArray, sql } from "drizzle-orm";

import { centsToDollars, formatMoney } from "~/domain/format";
import { isUuid } from "~/domain/ids";
import { REFUNDABLE_STATUSES, statusAfterRefunds } from "~/domain/order-status";
import type { OrderStatus } from "~/domain/status";
import { queryRows } from "~/utils/db-cursor.server";
import { db, schema, type Tx } from "~/utils/db.server";
import { sendEmail } from "~/utils/email.server";
import { env } from "~/utils/env.server";
import { HttpError } from "~/utils/http.server";
import { logger } from "~/utils/logger.server";
import { idOf, stripe, type Stripe } from "~/utils/stripe.server";

import { recordAudit } from "./audit.server";
import { recordOrderEmail } from "./order-emails.server";
import { endPlanOfRefundedOrder } from "./subscriptions-staff.server";
import { emitEvent, refundEventData } from "./webhooks.server";

/*
 * Refunds of orders, full or partial (docs/decisions/090). The dashboard's button and
 * Stripe's charge.refunded converge on one `refunds` row per refund:
 *  - the button reserves its amount in a transaction that locks the order (a second click, a retry
 *    with the same key or a concurrent request sees the money already taken), then asks Stripe with
 *    an idempotency key and our refund id in the refund's metadata;
 *  - the webhook reads the charge's refunds from Stripe and matches each by its unique Stripe id,
 *    else by our id in its metadata, and records only refunds made elsewhere (Stripe's dashboard).
 * An order's refunded amount is always the sum of its pending and succeeded refunds.
 */

type OrderRow = typeof schema.orders.$inferSelect;

export interface RefundRequest {
  /** Cents; omitted: what is left of the order. */
  amountCents?: number;
  /** Same key, same refund: a retried request never refunds twice. */
  requestKey?: string;
  staffId: string;
  /** Why (the dashboard's form asks; shown in the order's history). */
  reason?: string;
}

const MESSAGES = {
  notPaid: "This order has not been paid, so there is nothing to refund.",
  fullyRefunded: "This order has already been fully refunded.",
  noCharge: "This payment has no card charge on record here. Refund it from the Stripe dashboard; it will show up on this order.",
  keyReused: "This refund request was already used for another order.",
};

const lockOrder = async (tx: Tx, id: string) =>
  (await tx.select().from(schema.orders).where(eq(schema.orders.id, id)).for("update").limit(1))[0] as OrderRow | undefined;

/** Recomputes the order's refunded amount and status from its refunds; the order must be locked. */
async function settleOrder(tx: Tx, order: OrderRow): Promise<OrderRow> {
  const [{ cents }] = await tx
    .select({ cents: sql<number>`coalesce(sum(${schema.refunds.amountCents}), 0)::int` })
    .from(schema.refunds)
    .where(and(eq(schema.refunds.orderId, order.id), inArray(schema.refunds.status, ["pending", "succeeded"])));
  // A refund still under way holds its money but does not change the status yet.
  const [{ settled }] = await tx
    .select({ settled: sql<number>`coalesce(sum(${schema.refunds.amountCents}), 0)::int` })
    .from(schema.refunds)
    .where(and(eq(schema.refunds.orderId, order.id), eq(schema.refunds.status, "succeeded")));
  // Only paid money is refunded; a full refund is final (older ones have no refund rows).
  if (!(REFUNDABLE_STATUSES as readonly string[]).includes(order.status) && order.status !== "refunded") return order;
  const refundedCents = order.status === "refunded" ? Math.max(order.refundedCents, Math.min(cents, order.totalCents)) : Math.min(cents, order.totalCents);
  const status: OrderStatus = order.status === "refunded" ? "refunded" : statusAfterRefunds(order.totalCents, Math.min(settled, order.totalCents));
  const now = new Date();
  const [updated] = await tx.update(schema.orders).set({ refundedCents, status, updatedAt: now }).where(eq(schema.orders.id, order.id)).returning();
  if (status === "refunded") {
    await tx
      .update(schema.purchases)
      .set({ status: "refunded", updatedAt: now })
      .where(and(eq(schema.purchases.orderId, order.id), inArray(schema.purchases.status, ["in_progress", "completed"])));
  }
  return updated;
}

/** The card payment to refund: the order's own, or for a plan the first invoice's (billing's table). */
async function paymentIntentOf(order: OrderRow): Promise<string | null> {
  if (order.stripePaymentIntentId) return order.stripePaymentIntentId;
  if (order.kind !== "subscription") return null;
  const rows = await queryRows<{ pi: string }>(
    sql`select stripe_payment_intent_id as pi from invoices where order_id = ${order.id} and renewal = false and stripe_payment_intent_id is not null limit 1`,
  ).catch(() => []);
  return rows[0]?.pi ?? null;
}

export interface RefundPreview {
  amountCents: number;
  leftCents: number;
  currency: string;
  email: string;
  /** Everything left is refunded: the order becomes "refunded". */
  full: boolean;
  /** A plan's sign-up refunded in full: the plan ends now. */
  endsPlan: boolean;
}

/** What a refund would do, checked as the refund itself checks it (404, 409, 400), changing nothing. */
export async function previewRefund(orderId: string, amountCents: number | undefined): Promise<RefundPreview> {
  if (!isUuid(orderId)) throw new HttpError(404, "Order not found.", "NOT_FOUND");
  const [order] = await db.select().from(schema.orders).where(eq(schema.orders.id, orderId)).limit(1);
  if (!order) throw new HttpError(404, "Order not found.", "NOT_FOUND");
  if (order.status === "refunded") throw new HttpError(409, MESSAGES.fullyRefunded, "CONFLICT");
  if (!(REFUNDABLE_STATUSES as readonly string[]).includes(order.status)) throw new HttpError(409, MESSAGES.notPaid, "CONFLICT");
  const left = order.totalCents - order.refundedCents;
  if (left <= 0) throw new HttpError(409, MESSAGES.fullyRefunded, "CONFLICT");
  const amount = amountCents ?? left;
  if (amount > left) {
    throw new HttpError(400, `The refund can be at most ${formatMoney(centsToDollars(left), order.currency)}, what is left of this order.`, "INVALID_INPUT");
  }
  const full = amount === left;
  return { amountCents: amount, leftCents: left, currency: order.currency, email: order.email, full, endsPlan: full && order.kind === "subscription" };
}

/**
 * Refunds an order from the dashboard or the API. Returns the order as it stands afterwards.
 * 404 unknown order, 409 not paid / nothing left, 400 too much, 502 Stripe said no.
 */
export async function refundOrder(orderId: string, request: RefundRequest): Promise<OrderRow> {
  if (!isUuid(orderId)) throw new HttpError(404, "Order not found.", "NOT_FOUND");
  const [existing] = await db.select().from(schema.orders).where(eq(schema.orders.id, orderId)).limit(1);
  if (!existing) throw new HttpError(404, "Order not found.", "NOT_FOUND");
  const paymentIntent = stripe ? await paymentIntentOf(existing) : null;
  if (stripe && !paymentIntent && (REFUNDABLE_STATUSES as readonly string[]).includes(existing.status)) {
    throw new HttpError(409, MESSAGES.noCharge, "NO_CHARGE");
  }

  const reserved = await db.transaction(async (tx) => {
    const order = (await lockOrder(tx, orderId))!;
    if (request.requestKey) {
      const [replay] = await tx.select().from(schema.refunds).where(eq(schema.refunds.requestKey, request.requestKey)).limit(1);
      if (replay && replay.orderId !== orderId) throw new HttpError(409, MESSAGES.keyReused, "CONFLICT");
      if (replay) return { order, refund: null };
    }
    if (order.status === "refunded") throw new HttpError(409, MESSAGES.fullyRefunded, "CONFLICT");
    if (!(REFUNDABLE_STATUSES as readonly string[]).includes(order.status)) throw new HttpError(409, MESSAGES.notPaid, "CONFLICT");
    const left = order.totalCents - order.refundedCents;
    if (left <= 0) throw new HttpError(409, MESSAGES.fullyRefunded, "CONFLICT");
    const amount = request.amountCents ?? left;
    if (amount > left) {
      throw new HttpError(400, `The refund can be at most ${formatMoney(centsToDollars(left), order.currency)}, what is left of this order.`, "INVALID_INPUT");
    }
    const [refund] = await tx
      .insert(schema.refunds)
      .values({
        orderId,
        amountCents: amount,
        currency: order.currency,
        status: stripe ? "pending" : "succeeded",
        source: "dashboard",
        requestKey: request.requestKey ?? null,
        createdById: request.staffId,
        reason: request.reason ?? null,
      })
      .returning();
    // Test checkout: the money is refunded here and now, so the entry commits with it.
    if (!stripe) await auditRefund(tx, order, amount, request);
    return { order: await settleOrder(tx, order), refund };
  });
  const { refund } = reserved;
  if (!refund) return (await db.select().from(schema.orders).where(eq(schema.orders.id, orderId)))[0];
  if (!stripe) {
    logger.info({ orderId, refundId: refund.id, amountCents: refund.amountCents }, "order refunded (test checkout)");
    await sendRefundEmail(reserved.order, refund.amountCents);
    await endPlanOfRefundedOrder(reserved.order);
    return reserved.order;
  }

  let stripeRefund: Stripe.Refund;
  try {
    stripeRefund = await stripe.refunds.create(
      { payment_intent: paymentIntent!, amount: refund.amountCents, metadata: { orderId, refundId: refund.id } },
      { idempotencyKey: `refund-${refund.id}` },
    );
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    logger.warn({ err: error, orderId, refundId: refund.id }, "Stripe refused the refund");
    await db.transaction(async (tx) => {
      const order = (await lockOrder(tx, orderId))!;
      await tx
        .update(schema.refunds)
        .set({ status: "failed", failureMessage: message.slice(0, 500), updatedAt: new Date() })
        .where(and(eq(schema.refunds.id, refund.id), eq(schema.refunds.status, "pending")));
      await settleOrder(tx, order);
    });
    throw new HttpError(502, `Stripe could not refund this payment: ${message}`, "UPSTREAM_ERROR");
  }
  const order = await db.transaction(async (tx) => {
    const locked = (await lockOrder(tx, orderId))!;
    await tx
      .update(schema.refunds)
      .set({
        stripeRefundId: stripeRefund.id,
        status: stripeRefund.status === "failed" || stripeRefund.status === "canceled" ? "failed" : "succeeded",
        updatedAt: new Date(),
      })
      .where(eq(schema.refunds.id, refund.id));
    if (stripeRefund.status !== "failed" && stripeRefund.status !== "canceled") await auditRefund(tx, locked, refund.amountCents, request);
    const settled = await settleOrder(tx, locked);
    if (stripeRefund.status !== "failed" && stripeRefund.status !== "canceled")
      await emitEvent(tx, "order.refunded", refundEventData(settled, refund.amountCents));
    return settled;
  });
  logger.info({ orderId, refundId: refund.id, stripeRefundId: stripeRefund.id, amountCents: refund.amountCents }, "order refunded");
  await sendRefundEmail(order, refund.amountCents);
  await endPlanOfRefundedOrder(order);
  return order;
}

/** The audit entry of a refund staff made (a refund Stripe refused changed no money: none). */
function auditRefund(tx: Tx, order: OrderRow, amountCents: number, request: RefundRequest) {
  const amount = formatMoney(centsToDollars(amountCents), order.currency);
  const total = formatMoney(centsToDollars(order.totalCents), order.currency);
  return recordAudit(
    {
      actor: { id: request.staffId },
      action: "order.refund",
      target: { kind: "order", id: order.id, label: `${order.name || order.email} (${order.email})` },
      detail: `Refunded ${amount} of ${total}${request.reason ? `: ${request.reason}` : ""}`,
    },
    tx,
  );
}

/** The order a charge paid for: by its payment intent, or a plan's first invoice (billing's table). */
async function orderForPaymentIntent(paymentIntent: string): Promise<OrderRow | null> {
  const [direct] = await db.select().from(schema.orders).where(eq(schema.orders.stripePaymentIntentId, paymentIntent)).limit(1);
  if (direct) return direct;
  const viaInvoice = await queryRows<{ id: string }>(
    sql`select order_id as id from invoices where stripe_payment_intent_id = ${paymentIntent} and renewal = false and order_id is not null limit 1`,
  ).catch(() => []);
  if (!viaInvoice[0]) return null;
  const [order] = await db.select().from(schema.orders).where(eq(schema.orders.id, viaInvoice[0].id)).limit(1);
  return order ?? null;
}

/** What Stripe knows of a charge's refunds: from the event when it carries them, else asked. */
async function refundsOfCharge(charge: Stripe.Charge, paymentIntent: string): Promise<Stripe.Refund[] | null> {
  if (charge.refunds?.data && charge.refunds.data.length > 0 && !charge.refunds.has_more) return charge.refunds.data;
  if (!stripe) return null;
  const list = await stripe.refunds.list({ payment_intent: paymentIntent, limit: 100 });
  return list.data;
}

export interface ChargeRefundPlan {
  order: OrderRow;
  refunds: Stripe.Refund[] | null;
}

/** Before the webhook's transaction: the order and Stripe's refunds (network, so outside it). */
export async function prepareChargeRefund(charge: Stripe.Charge): Promise<ChargeRefundPlan | null> {
  const paymentIntent = idOf(charge.payment_intent);
  if (!paymentIntent) return null;
  const order = await orderForPaymentIntent(paymentIntent);
  if (!order) return null;
  return { order, refunds: await refundsOfCharge(charge, paymentIntent) };
}

/**
 * charge.refunded, inside the event's transaction: records refunds made outside the app, settles
 * ours, and recomputes the order. Returns the cents newly refunded from elsewhere (to e-mail).
 */
export async function applyChargeRefund(tx: Tx, charge: Stripe.Charge, plan: ChargeRefundPlan): Promise<number> {
  const order = await lockOrder(tx, plan.order.id);
  if (!order) return 0;
  let added = 0;
  if (plan.refunds) {
    for (const refund of plan.refunds) {
      const ok = refund.status === "succeeded" || refund.status === "pending";
      const status = ok ? "succeeded" : "failed";
      const [known] = await tx.select().from(schema.refunds).where(eq(schema.refunds.stripeRefundId, refund.id)).limit(1);
      if (known) {
        if (known.status !== status) await tx.update(schema.refunds).set({ status, updatedAt: new Date() }).where(eq(schema.refunds.id, known.id));
        continue;
      }
      const ours = refund.metadata?.refundId;
      if (ours && isUuid(ours)) {
        const matched = await tx
          .update(schema.refunds)
          .set({ stripeRefundId: refund.id, status, updatedAt: new Date() })
          .where(and(eq(schema.refunds.id, ours), eq(schema.refunds.orderId, order.id)))
          .returning({ id: schema.refunds.id });
        if (matched.length > 0) continue;
      }
      if (!ok) continue;
      await tx.insert(schema.refunds).values({
        orderId: order.id,
        amountCents: refund.amount,
        currency: refund.currency ?? order.currency,
        status: "succeeded",
        source: "stripe",
        stripeRefundId: refund.id,
      });
      added += refund.amount;
    }
  }
  // Whatever Stripe counts as refunded that no row explains yet (no list, or a refund not listed).
  const [{ recorded }] = await tx
    .select({ recorded: sql<number>`coalesce(sum(${schema.refunds.amountCents}), 0)::int` })
    .from(schema.refunds)
    .where(and(eq(schema.refunds.orderId, order.id), inArray(schema.refunds.status, ["pending", "succeeded"])));
  const missing = Math.min(charge.amount_refunded ?? 0, order.totalCents) - Math.max(recorded, order.status === "refunded" ? order.refundedCents : 0);
  if (missing > 0) {
    await tx.insert(schema.refunds).values({ orderId: order.id, amountCents: missing, currency: order.currency, status: "succeeded", source: "stripe" });
    added += missing;
  }
  const before = order.refundedCents;
  const settled = await settleOrder(tx, order);
  if (added > 0) await emitEvent(tx, "order.refunded", refundEventData(settled, Math.max(0, settled.refundedCents - before)));
  return added > 0 ? Math.max(0, settled.refundedCents - before) : 0;
}

/** The customer hears about every refund, with the amount and what is left. */
export async function sendRefundEmail(order: OrderRow, amountCents: number) {
  const amount = formatMoney(centsToDollars(amountCents), order.currency);
  const full = order.refundedCents >= order.totalCents;
  const subject = full ? "Your BrandLift order has been refunded" : `A refund of ${amount} is on its way`;
  try {
    await sendEmail({
      to: order.email,
      category: "billing",
      subject,
      heading: full ? "Your order has been refunded" : "We have refunded part of your order",
      paragraphs: [
        `Hi ${order.name},`,
        `We have refunded ${amount} to the card you paid with.${full ? "" : ` In total ${formatMoney(centsToDollars(order.refundedCents), order.currency)} of ${formatMoney(centsToDollars(order.totalCents), order.currency)} has been refunded.`}`,
        "Depending on your bank, it shows on your statement within 5 to 10 business days.",
        "Questions? Reply to this e-mail or message us from your dashboard.",
      ],
      action: { label: "Open your dashboard", url: `${env.appUrl}/login` },
    });
    await recordOrderEmail(order.id, "refund", order.email, subject);
  } catch (error) {
    logger.error({ err: error, orderId: order.id }, "sending the refund e-mail failed");
  }
}
