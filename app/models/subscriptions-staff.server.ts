import { and, desc, eq, ilike, inArray, notInArray, or, sql, type SQL } from "drizzle-orm";

import { isLiveStatus, type Subscription } from "~/domain/billing";
import { isUuid } from "~/domain/ids";
import { can, type Actor } from "~/domain/permissions";
import type { StaffPlanStatus } from "~/domain/schemas/subscriptions";
import { db, schema } from "~/utils/db.server";
import { HttpError, notFound } from "~/utils/http.server";
import { logger } from "~/utils/logger.server";
import { stripe, type Stripe } from "~/utils/stripe.server";

import { recordAudit } from "./audit.server";
import { listPaymentsOfSubscription, type Order } from "./orders-list.server";
import { findSubscription, syncSubscription, toSubscription, toSubscriptions, type SubscriptionRow } from "./subscriptions.server";

/*
 * Subscriptions for staff (decision 175): every plan with its customer, a page per plan with its
 * payments (the sign-up order and each renewal, all orders: decision 175), and staff's own changes:
 * cancel at the period's end, cancel now, resume. With a Stripe key each change is Stripe's
 * (subscriptions API) and its answer is applied at once, as its webhook would; in test mode the row
 * changes directly. A plan whose sign-up is refunded in full ends (refunds.server.ts calls
 * endPlanOfRefundedOrder).
 */

export const SUBSCRIPTIONS_PAGE_SIZE = 25;

/** Never shown to staff either: checkouts that were never paid. */
const HIDDEN = ["incomplete", "incomplete_expired"];

export const STAFF_PLAN_MESSAGES = {
  ended: "This plan has already ended.",
  alreadyCancelling: "This plan is already set to cancel at the end of the period.",
  notCancelling: "This plan is not set to cancel, so there is nothing to resume.",
  stripeFailed: "Stripe could not change this plan right now. Please try again.",
  noStripe: "This plan has no Stripe subscription on record here. Change it from the Stripe dashboard.",
} as const;

export interface StaffSubscriptionRow {
  subscription: Subscription;
  customer: { _id: string; name: string; email: string } | null;
  /** What its payments brought, net of refunds, in cents. */
  paidCents: number;
  payments: number;
}

const paymentsOf = sql`(${schema.orders.subscriptionId} = ${schema.subscriptions.id} or ${schema.orders.id} = ${schema.subscriptions.orderId})`;

function statusCondition(status: StaffPlanStatus | undefined): SQL | undefined {
  switch (status) {
    case undefined:
      return undefined;
    case "active":
      return and(inArray(schema.subscriptions.status, ["active", "trialing"]), eq(schema.subscriptions.cancelAtPeriodEnd, false));
    case "ending":
      return and(inArray(schema.subscriptions.status, ["active", "trialing", "past_due", "unpaid"]), eq(schema.subscriptions.cancelAtPeriodEnd, true));
    case "past_due":
      return inArray(schema.subscriptions.status, ["past_due", "unpaid"]);
    case "canceled":
      return notInArray(schema.subscriptions.status, ["active", "trialing", "past_due", "unpaid", ...HIDDEN]);
  }
}

/** Every plan, newest first, filtered by status and searched by the customer's name or e-mail. */
export async function listStaffSubscriptions({ status, search, page = 1 }: { status?: StaffPlanStatus; search?: string; page?: number }) {
  const term = search?.trim();
  const pattern = term ? `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const where = and(
    notInArray(schema.subscriptions.status, HIDDEN),
    statusCondition(status),
    pattern ? or(ilike(schema.users.name, pattern), ilike(schema.users.email, pattern)) : undefined,
  );
  const current = Math.max(1, Math.floor(page));
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({
        row: schema.subscriptions,
        customerId: schema.users.id,
        customerName: schema.users.name,
        customerEmail: schema.users.email,
        paidCents: sql<string>`(select coalesce(sum(${schema.orders.totalCents} - ${schema.orders.refundedCents}), 0) from ${schema.orders}
          where ${paymentsOf} and ${schema.orders.status} in ('paid', 'partially_refunded'))`,
        payments: sql<number>`(select count(*)::int from ${schema.orders} where ${paymentsOf} and ${schema.orders.paidAt} is not null)`,
      })
      .from(schema.subscriptions)
      .leftJoin(schema.users, eq(schema.users.id, schema.subscriptions.userId))
      .where(where)
      .orderBy(desc(schema.subscriptions.createdAt), desc(schema.subscriptions.id))
      .limit(SUBSCRIPTIONS_PAGE_SIZE)
      .offset((current - 1) * SUBSCRIPTIONS_PAGE_SIZE),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(schema.subscriptions)
      .leftJoin(schema.users, eq(schema.users.id, schema.subscriptions.userId))
      .where(where),
  ]);
  const json = await toSubscriptions(rows.map((r) => r.row));
  const subscriptions: StaffSubscriptionRow[] = rows.map((r, index) => ({
    subscription: json[index],
    customer: r.customerId ? { _id: r.customerId, name: r.customerName ?? "", email: r.customerEmail ?? "" } : null,
    paidCents: Number(r.paidCents),
    payments: r.payments,
  }));
  return { subscriptions, total, page: current, pages: Math.max(1, Math.ceil(total / SUBSCRIPTIONS_PAGE_SIZE)) };
}

export interface StaffSubscriptionDetail {
  subscription: Subscription;
  customer: { _id: string; name: string; email: string } | null;
  stripeSubscriptionId: string | null;
  stripeCustomerId: string | null;
  payments: Order[];
}

async function staffRow(actor: Actor, id: string): Promise<SubscriptionRow> {
  if (!can(actor, "subscriptions:manage")) throw new HttpError(403, "Only the team can manage plans.", "FORBIDDEN");
  const row = isUuid(id) ? await findSubscription(id) : null;
  if (!row || HIDDEN.includes(row.status)) throw notFound("Plan not found.");
  return row;
}

/** One plan for staff: its customer and its payments (sign-up and renewals), oldest first. */
export async function getStaffSubscription(actor: Actor, id: string): Promise<StaffSubscriptionDetail> {
  const row = await staffRow(actor, id);
  const [customer] = row.userId
    ? await db.select({ _id: schema.users.id, name: schema.users.name, email: schema.users.email }).from(schema.users).where(eq(schema.users.id, row.userId))
    : [];
  return {
    subscription: await toSubscription(row),
    customer: customer ?? null,
    stripeSubscriptionId: row.stripeSubscriptionId,
    stripeCustomerId: row.stripeCustomerId,
    payments: await listPaymentsOfSubscription(row),
  };
}

export type StaffPlanChange = "cancel_at_period_end" | "cancel_now" | "resume";

/** Applies what Stripe answered (or, in test mode, what it would have) to our row, as its webhook would. */
async function applyStripeSubscription(subscription: Stripe.Subscription, deleted: boolean) {
  await db.transaction((tx) => syncSubscription(tx, subscription, deleted));
}

async function changeInStripe(row: SubscriptionRow, change: StaffPlanChange, prorate = false) {
  if (!stripe) return;
  if (!row.stripeSubscriptionId) throw new HttpError(409, STAFF_PLAN_MESSAGES.noStripe, "NO_STRIPE_SUBSCRIPTION");
  try {
    const answer =
      change === "cancel_now"
        ? await stripe.subscriptions.cancel(row.stripeSubscriptionId, prorate ? { prorate: true, invoice_now: true } : {})
        : await stripe.subscriptions.update(row.stripeSubscriptionId, { cancel_at_period_end: change === "cancel_at_period_end" });
    await applyStripeSubscription(answer, change === "cancel_now");
  } catch (error) {
    if (error instanceof HttpError) throw error;
    logger.warn({ err: error, subscriptionId: row.id, change }, "Stripe refused a plan change");
    throw new HttpError(502, STAFF_PLAN_MESSAGES.stripeFailed, "UPSTREAM_ERROR");
  }
}

/**
 * Ends a live plan now. With Stripe its subscription is cancelled (with `prorate`, the unused part
 * of the period is credited on a final invoice, as Stripe prorates) and the answer applied at once;
 * in test mode the row ends directly. Staff's "cancel now" and a customer deleting their account
 * (decision 282) both end plans here.
 */
export async function cancelSubscriptionNow(row: SubscriptionRow, options: { prorate?: boolean } = {}) {
  if (stripe) await changeInStripe(row, "cancel_now", options.prorate);
  else
    await db
      .update(schema.subscriptions)
      .set({ status: "canceled", cancelAtPeriodEnd: false, updatedAt: new Date() })
      .where(eq(schema.subscriptions.id, row.id));
}

/**
 * Staff cancel a plan at the end of its period, cancel it now, or resume one set to cancel.
 * 409 for a change that does not apply (ended, already cancelling, not cancelling).
 */
export async function changeSubscriptionByStaff(actor: Actor, id: string, change: StaffPlanChange): Promise<SubscriptionRow> {
  const row = await staffRow(actor, id);
  if (!isLiveStatus(row.status)) throw new HttpError(409, STAFF_PLAN_MESSAGES.ended, "PLAN_ENDED");
  if (change === "cancel_at_period_end" && row.cancelAtPeriodEnd) throw new HttpError(409, STAFF_PLAN_MESSAGES.alreadyCancelling, "ALREADY_CANCELLING");
  if (change === "resume" && !row.cancelAtPeriodEnd) throw new HttpError(409, STAFF_PLAN_MESSAGES.notCancelling, "NOT_CANCELLING");
  if (change === "cancel_now") await cancelSubscriptionNow(row);
  else if (stripe) await changeInStripe(row, change);
  else
    await db
      .update(schema.subscriptions)
      .set({ cancelAtPeriodEnd: change === "cancel_at_period_end", updatedAt: new Date() })
      .where(eq(schema.subscriptions.id, row.id));
  logger.info({ staffId: actor.id, subscriptionId: row.id, change }, "plan changed by staff");
  await auditPlanChange(actor, row, change);
  return (await findSubscription(row.id))!;
}

const PLAN_CHANGE_AUDIT = {
  cancel_at_period_end: { action: "subscription.cancel", detail: "Set to end at the end of the period; no further renewals" },
  cancel_now: { action: "subscription.end", detail: "Ended now" },
  resume: { action: "subscription.resume", detail: "Renews again at the end of the period" },
} as const;

/** After Stripe answered (its change is already made and synced): the entry says what staff did. */
async function auditPlanChange(actor: Actor, row: SubscriptionRow, change: StaffPlanChange) {
  const [customer] = row.userId
    ? await db.select({ name: schema.users.name, email: schema.users.email }).from(schema.users).where(eq(schema.users.id, row.userId))
    : [];
  const { action, detail } = PLAN_CHANGE_AUDIT[change];
  await recordAudit({
    actor,
    action,
    target: { kind: "subscription", id: row.id, label: `${row.planId} plan of ${customer ? `${customer.name} (${customer.email})` : "a former customer"}` },
    detail,
  });
}

/**
 * A plan's sign-up refunded in full: the plan ends now (with Stripe, its subscription is cancelled
 * so no renewal follows). Never fails the refund: a Stripe error is logged for staff to finish by hand.
 */
export async function endPlanOfRefundedOrder(order: { id: string; kind: string; status: string }) {
  if (order.kind !== "subscription" || order.status !== "refunded") return;
  const [row] = await db.select().from(schema.subscriptions).where(eq(schema.subscriptions.orderId, order.id)).limit(1);
  if (!row || !isLiveStatus(row.status)) return;
  try {
    if (stripe && row.stripeSubscriptionId) await applyStripeSubscription(await stripe.subscriptions.cancel(row.stripeSubscriptionId), true);
    else
      await db
        .update(schema.subscriptions)
        .set({ status: "canceled", cancelAtPeriodEnd: false, updatedAt: new Date() })
        .where(eq(schema.subscriptions.id, row.id));
    logger.info({ orderId: order.id, subscriptionId: row.id }, "plan ended: its sign-up was refunded in full");
  } catch (error) {
    logger.error({ err: error, orderId: order.id, subscriptionId: row.id }, "the sign-up was refunded but its plan could not be cancelled in Stripe");
  }
}
