import { and, asc, eq, inArray, isNull, lt, or } from "drizzle-orm";

import { db, schema } from "~/utils/db.server";
import { logger } from "~/utils/logger.server";
import { stripe, type CheckoutSession } from "~/utils/stripe.server";
import { startSweep } from "~/utils/sweep.server";

import { cancelCheckoutSession, fulfilCheckoutSession, type OrderRow } from "./orders.server";

/*
 * Orders stuck in pending (decision 241): a webhook that never arrived leaves a paid
 * order pending, and an abandoned checkout leaves one pending for ever. Every node runs this sweep;
 * an order older than an hour is claimed by one node at a time (its `checkout_checked_at` is set
 * under `for update skip locked`), asked about at Stripe, and then completed through the one
 * fulfilment (as the webhook would) or expired. An order whose payment is still settling at
 * Stripe stays pending and is asked again later.
 */

export const PENDING_ORDER_AGE_MS = 60 * 60 * 1000;
/** An order left pending (a payment still settling, Stripe away) is asked about again after this. */
export const PENDING_RECHECK_MS = 15 * 60 * 1000;
const PENDING_SWEEP_INTERVAL_MS = 10 * 60 * 1000;
const CLAIM_BATCH = 50;

const o = schema.orders;

type PendingOutcome = "fulfilled" | "expired" | "still-pending" | "unreachable";

/**
 * Takes up to `limit` pending orders older than an hour that no node asked about lately, marking
 * them as asked now. Two nodes claiming at once get different orders (rows locked by the other's
 * claim are skipped), and neither claims an order again before PENDING_RECHECK_MS.
 */
export async function claimStalePendingOrders(now = new Date(), limit = CLAIM_BATCH): Promise<OrderRow[]> {
  const createdBefore = new Date(now.getTime() - PENDING_ORDER_AGE_MS);
  const checkedBefore = new Date(now.getTime() - PENDING_RECHECK_MS);
  return db.transaction(async (tx) => {
    const stale = await tx
      .select({ id: o.id })
      .from(o)
      .where(and(eq(o.status, "pending"), lt(o.createdAt, createdBefore), or(isNull(o.checkoutCheckedAt), lt(o.checkoutCheckedAt, checkedBefore))))
      .orderBy(asc(o.createdAt))
      .limit(limit)
      .for("update", { skipLocked: true });
    if (stale.length === 0) return [];
    return tx
      .update(o)
      .set({ checkoutCheckedAt: now })
      .where(
        and(
          inArray(
            o.id,
            stale.map((row) => row.id),
          ),
          eq(o.status, "pending"),
        ),
      )
      .returning();
  });
}

/** What Stripe says about the order's checkout, or null when it cannot be asked now (logged). */
async function askStripe(order: OrderRow): Promise<CheckoutSession | null> {
  try {
    return await stripe!.checkout.sessions.retrieve(order.stripeSessionId!);
  } catch (error) {
    logger.warn({ err: error, orderId: order.id }, "the pending-order sweep could not retrieve the checkout session");
    return null;
  }
}

const isPaid = (session: CheckoutSession) => session.payment_status === "paid" || session.payment_status === "no_payment_required";

async function expire(order: OrderRow): Promise<PendingOutcome> {
  const outcome = await cancelCheckoutSession({ id: order.stripeSessionId ?? "", client_reference_id: order.id });
  if (outcome === "cancelled") logger.info({ orderId: order.id }, "expired an order left pending for over an hour");
  return outcome === "cancelled" ? "expired" : "still-pending";
}

async function fulfil(order: OrderRow, session: CheckoutSession): Promise<PendingOutcome> {
  const outcome = await fulfilCheckoutSession(session);
  if (outcome === "fulfilled") logger.info({ orderId: order.id }, "completed a paid order whose webhook never arrived");
  return outcome === "fulfilled" || outcome === "already-fulfilled" ? "fulfilled" : "still-pending";
}

/**
 * One claimed order: without a checkout session (Stripe refused to make one) or in the test
 * checkout (no payment happens anywhere but our own page) it expires; at Stripe, a paid session
 * is fulfilled, an expired one cancels the order, and an open one is expired at Stripe first, so
 * nobody can pay for an order we have given up on (a session paid meanwhile is fulfilled instead).
 * A session complete but unpaid (a bank debit settling) stays pending for its webhook.
 */
async function settlePendingOrder(order: OrderRow): Promise<PendingOutcome> {
  if (!order.stripeSessionId || !stripe) return expire(order);
  const session = await askStripe(order);
  if (!session) return "unreachable";
  if (isPaid(session)) return fulfil(order, session);
  if (session.status === "expired") return expire(order);
  if (session.status !== "open") return "still-pending";
  try {
    await stripe.checkout.sessions.expire(session.id);
  } catch (error) {
    // Refused: most likely paid a moment ago. Whatever it is now decides.
    logger.info({ err: error, orderId: order.id }, "Stripe refused to expire a pending order's checkout session");
    const again = await askStripe(order);
    if (again && isPaid(again)) return fulfil(order, again);
    if (again?.status === "expired") return expire(order);
    return again ? "still-pending" : "unreachable";
  }
  return expire(order);
}

/** Claims and settles batches until none is left; returns what happened to each order claimed. */
export async function sweepPendingOrders(now = new Date()): Promise<Record<PendingOutcome, number>> {
  const counts: Record<PendingOutcome, number> = { fulfilled: 0, expired: 0, "still-pending": 0, unreachable: 0 };
  for (;;) {
    const claimed = await claimStalePendingOrders(now);
    for (const order of claimed) {
      const outcome = await settlePendingOrder(order).catch((error: unknown) => {
        logger.warn({ err: error, orderId: order.id }, "settling a pending order failed");
        return "unreachable" as const;
      });
      counts[outcome] += 1;
    }
    if (claimed.length < CLAIM_BATCH) return counts;
  }
}

/** The sweep, every ten minutes, as a job (once across nodes). */
export function startPendingOrderSweep(): () => void {
  return startSweep({
    kind: "pending-orders",
    everyMs: PENDING_SWEEP_INTERVAL_MS,
    work: () => sweepPendingOrders(),
    done: "pending-order sweep",
    failed: "the pending-order sweep failed",
    // Orders still pending, or Stripe out of reach, are no news: the next round looks again.
    didSomething: (counts) => (counts.fulfilled ?? 0) > 0 || (counts.expired ?? 0) > 0,
  });
}
