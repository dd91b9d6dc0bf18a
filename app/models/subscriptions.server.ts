import { and, desc, eq, inArray } from "drizzle-orm";
import { findPlan } from "~/components/landing/plans";
import { db, schema, type Tx } from "~/utils/db.server";
import type { Stripe } from "~/utils/stripe.server";

/** Stripe statuses in which the customer still has their plan. */
export const LIVE_SUBSCRIPTION_STATUSES = ["active", "trialing", "past_due"] as const;

export interface ActiveSubscription {
  id: string;
  planId: string;
  title: string;
  priceCents: number;
  /** Dollars a month. */
  price: number;
  currency: string;
  status: string;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
}

/** The customer's current monthly plan, for the dashboard; null when they have none. */
export async function getActiveSubscription(userId: string): Promise<ActiveSubscription | null> {
  const [row] = await db
    .select()
    .from(schema.subscriptions)
    .where(and(eq(schema.subscriptions.userId, userId), inArray(schema.subscriptions.status, [...LIVE_SUBSCRIPTION_STATUSES])))
    .orderBy(desc(schema.subscriptions.createdAt))
    .limit(1);
  if (!row) return null;
  return {
    id: row.id,
    planId: row.planId,
    title: findPlan(row.planId)?.title ?? row.planId,
    priceCents: row.priceCents,
    price: row.priceCents / 100,
    currency: row.currency,
    status: row.status,
    currentPeriodEnd: row.currentPeriodEnd,
    cancelAtPeriodEnd: row.cancelAtPeriodEnd,
  };
}

const toDate = (seconds: number | null | undefined) => (typeof seconds === "number" ? new Date(seconds * 1000) : null);

/** customer.subscription.*: mirror Stripe's status, period end and cancellation onto our row. */
export async function syncSubscription(tx: Tx, subscription: Stripe.Subscription, deleted = false) {
  const item = subscription.items?.data?.[0] as (Stripe.SubscriptionItem & { current_period_end?: number }) | undefined;
  const legacy = subscription as Stripe.Subscription & { current_period_end?: number };
  const values = {
    status: deleted ? "canceled" : subscription.status,
    currentPeriodEnd: toDate(item?.current_period_end ?? legacy.current_period_end),
    cancelAtPeriodEnd: subscription.cancel_at_period_end ?? false,
    stripeCustomerId: typeof subscription.customer === "string" ? subscription.customer : (subscription.customer?.id ?? null),
    updatedAt: new Date(),
  };
  const updated = await tx
    .update(schema.subscriptions)
    .set(values)
    .where(eq(schema.subscriptions.stripeSubscriptionId, subscription.id))
    .returning({ id: schema.subscriptions.id });
  if (updated.length > 0) return true;
  // The subscription events can arrive before checkout.session.completed: link by our order id.
  const orderId = subscription.metadata?.orderId;
  if (!orderId || !/^[0-9a-f-]{36}$/i.test(orderId)) return false;
  const linked = await tx
    .update(schema.subscriptions)
    .set({ ...values, stripeSubscriptionId: subscription.id })
    .where(eq(schema.subscriptions.orderId, orderId))
    .returning({ id: schema.subscriptions.id });
  return linked.length > 0;
}

function invoiceSubscriptionId(invoice: Stripe.Invoice): string | null {
  const fromParent = invoice.parent?.subscription_details?.subscription;
  const legacy = (invoice as Stripe.Invoice & { subscription?: string | { id: string } | null }).subscription;
  const value = fromParent ?? legacy;
  return typeof value === "string" ? value : (value?.id ?? null);
}

/** invoice.paid keeps the plan active for the next period; invoice.payment_failed marks it past due. */
export async function applyInvoice(tx: Tx, invoice: Stripe.Invoice, paid: boolean) {
  const subscriptionId = invoiceSubscriptionId(invoice);
  if (!subscriptionId) return false;
  const periodEnd = invoice.lines?.data?.[0]?.period?.end;
  const updated = await tx
    .update(schema.subscriptions)
    .set({
      status: paid ? "active" : "past_due",
      ...(paid && periodEnd ? { currentPeriodEnd: toDate(periodEnd) } : {}),
      updatedAt: new Date(),
    })
    .where(eq(schema.subscriptions.stripeSubscriptionId, subscriptionId))
    .returning({ id: schema.subscriptions.id });
  return updated.length > 0;
}
