import { and, desc, eq, inArray, notInArray, sql, type SQLWrapper } from "drizzle-orm";

import { apiSubscriptionStatus, isLiveStatus, LIVE_SUBSCRIPTION_STATUSES, type Subscription, type SubscriptionJson } from "~/domain/billing";
import { centsToDollars } from "~/domain/format";
import { isUuid, withWireId } from "~/domain/ids";
import { can, type Actor } from "~/domain/permissions";
import { db, schema, type Tx } from "~/utils/db.server";
import { sendEmail } from "~/utils/email.server";
import { env } from "~/utils/env.server";
import { notFound } from "~/utils/http.server";
import { logger } from "~/utils/logger.server";
import { idOf, type Stripe } from "~/utils/stripe.server";

import { findPlan, listPlans, type PlanRecord } from "./catalogue.server";
import { membersWho } from "./clients.server";
import { recordInvoice } from "./invoices.server";
import { notificationSettingsOf, notify } from "./notifications.server";
import { emitEvent, subscriptionEventData } from "./webhooks.server";

/*
 * Subscriptions (monthly plans) as first-class records. Stripe is the source of truth: checkout
 * creates the row, customer.subscription.* and invoice.* webhooks keep it current (the test
 * billing page drives the same functions with Stripe-shaped objects). A row is "ours" when it was
 * created by our checkout; a webhook for any other subscription changes nothing.
 */

export { LIVE_SUBSCRIPTION_STATUSES };
export type SubscriptionRow = typeof schema.subscriptions.$inferSelect;

/** A plan's name and what it includes, from the catalogue (as it reads now). */
export async function planFor(key: string) {
  const plan = await findPlan(key);
  return { key, name: plan?.name ?? key, features: plan?.features ?? [], priceCents: plan?.priceCents ?? null };
}

/** Statuses never shown to the customer: checkouts that were never paid. */
const HIDDEN_STATUSES = ["incomplete", "incomplete_expired"];

/** The Subscription shape of the API (dollars at its edge), with the plan's name and what it includes. */
export async function toSubscriptionJsons(rows: SubscriptionRow[]): Promise<SubscriptionJson[]> {
  return (await toSubscriptions(rows)).map(subscriptionJson);
}

function subscriptionJson({ plan, priceCents, ...subscription }: Subscription): SubscriptionJson {
  return { _id: subscription.id, ...subscription, plan: withWireId(plan), price: centsToDollars(priceCents) };
}

/** Plans as the screens take them (price in cents), with the plan's name and what it includes from the catalogue. */
export async function toSubscriptions(rows: SubscriptionRow[]): Promise<Subscription[]> {
  if (rows.length === 0) return [];
  const [plans, briefs] = [await listPlans(), await selectSubscriptionBriefs(rows.map((row) => row.id))];
  return subscriptionViews(rows, plans, briefs);
}

/** toSubscriptions of rows read with the catalogue's plans and their briefs (selectSubscriptionBriefs). */
export function subscriptionViews(
  rows: SubscriptionRow[],
  plans: PlanRecord[],
  briefs: Array<{ id: string | null; submittedAt: Date | null }>,
): Subscription[] {
  const byKey = new Map(plans.map((plan) => [plan.key, plan]));
  const briefOf = new Map(briefs.map((row) => [row.id!, row]));
  return rows.map((row) => toSubscriptionView(row, byKey.get(row.planId), briefOf.get(row.id)));
}

export async function toSubscription(row: SubscriptionRow): Promise<Subscription> {
  const plan = (await findPlan(row.planId)) ?? undefined;
  return subscriptionViews([row], plan ? [plan] : [], await selectSubscriptionBriefs([row.id]))[0];
}

/**
 * The briefs of these subscriptions (app/models/briefs.server.ts: present when the plan asked
 * questions when it was paid), by subscription id; `ids` may be a select of subscription ids.
 */
export function selectSubscriptionBriefs(ids: string[] | SQLWrapper) {
  return db
    .select({ id: schema.briefs.subscriptionId, submittedAt: schema.briefs.submittedAt })
    .from(schema.briefs)
    .where(inArray(schema.briefs.subscriptionId, ids));
}

function toSubscriptionView(row: SubscriptionRow, plan: PlanRecord | undefined, brief: { submittedAt: Date | null } | undefined): Subscription {
  return {
    id: row.id,
    plan: { id: plan?.id ?? row.planId, key: row.planId, name: plan?.name ?? row.planId },
    priceCents: row.priceCents,
    currency: row.currency,
    status: apiSubscriptionStatus(row.status),
    currentPeriodEnd: row.currentPeriodEnd?.toISOString() ?? null,
    cancelAtPeriodEnd: row.cancelAtPeriodEnd,
    features: plan?.features ?? [],
    createdAt: row.createdAt.toISOString(),
    brief: { required: !!brief, submittedAt: brief?.submittedAt?.toISOString() ?? null },
  };
}

/** The customer's plans, newest first: live ones and ended ones, never unpaid checkouts. */
export async function listSubscriptionsForUser(userId: string): Promise<SubscriptionRow[]> {
  if (!isUuid(userId)) return [];
  return selectSubscriptionsOfUser(userId);
}

/** listSubscriptionsForUser as a select not yet run (a page reads it with others: readTogether); the caller checks the id. */
export function selectSubscriptionsOfUser(userId: string) {
  return db.select().from(schema.subscriptions).where(shownOf(userId)).orderBy(desc(schema.subscriptions.createdAt), desc(schema.subscriptions.id));
}

/** The briefs of a customer's plans as listSubscriptionsForUser lists them (toSubscriptions reads them so), as a select not yet run. */
export function selectSubscriptionBriefsOfUser(userId: string) {
  return selectSubscriptionBriefs(db.select({ id: schema.subscriptions.id }).from(schema.subscriptions).where(shownOf(userId)));
}

const shownOf = (userId: string) => and(eq(schema.subscriptions.userId, userId), notInArray(schema.subscriptions.status, HIDDEN_STATUSES));

/** For the staff's customer list: each customer's plans, by customer id. */
export async function subscriptionsByUser(userIds: string[]): Promise<Record<string, Subscription[]>> {
  const ids = userIds.filter(isUuid);
  if (ids.length === 0) return {};
  const rows = await db
    .select()
    .from(schema.subscriptions)
    .where(and(inArray(schema.subscriptions.userId, ids), notInArray(schema.subscriptions.status, HIDDEN_STATUSES)))
    .orderBy(desc(schema.subscriptions.createdAt));
  const result: Record<string, Subscription[]> = {};
  const json = await toSubscriptions(rows);
  rows.forEach((row, index) => (result[row.userId!] ??= []).push(json[index]));
  return result;
}

export async function findSubscription(id: string, tx: Tx | typeof db = db): Promise<SubscriptionRow | null> {
  if (!isUuid(id)) return null;
  const [row] = await tx.select().from(schema.subscriptions).where(eq(schema.subscriptions.id, id)).limit(1);
  return row ?? null;
}

/** One plan for someone allowed to see it (its customer, staff); anything else is the same 404. */
export async function getSubscriptionFor(actor: Actor, id: string): Promise<SubscriptionRow> {
  const row = await findSubscription(id);
  if (!row || HIDDEN_STATUSES.includes(row.status) || !row.userId) throw notFound("Plan not found.");
  if (!can(actor, "subscription:read", { ownerId: row.userId })) {
    logger.warn({ actorId: actor.id, subscriptionId: id }, "refused access to another customer's plan");
    throw notFound("Plan not found.");
  }
  return row;
}

export interface SubscriptionMetrics {
  /** Monthly recurring revenue in cents: the monthly price of every live plan. */
  mrrCents: number;
  activeSubscribers: number;
}

/** Staff overview: MRR and the number of customers with a live plan. */
export async function getSubscriptionMetrics(): Promise<SubscriptionMetrics> {
  const [row] = await db
    .select({
      mrrCents: sql<string>`coalesce(sum(${schema.subscriptions.priceCents}), 0)`,
      subscribers: sql<number>`count(distinct ${schema.subscriptions.userId})::int`,
    })
    .from(schema.subscriptions)
    .where(inArray(schema.subscriptions.status, [...LIVE_SUBSCRIPTION_STATUSES]));
  return { mrrCents: Number(row.mrrCents), activeSubscribers: row.subscribers };
}

/** The customer's current plan (the newest live one), for the staff's and the customer's headers. */
export async function getActiveSubscription(userId: string) {
  const rows = await listSubscriptionsForUser(userId);
  const row = rows.find((candidate) => isLiveStatus(candidate.status));
  return row ? { ...row, title: (await planFor(row.planId)).name, price: centsToDollars(row.priceCents) } : null;
}

const toDate = (seconds: number | null | undefined) => (typeof seconds === "number" ? new Date(seconds * 1000) : null);
const orderIdOf = (metadata: Record<string, string> | null | undefined) => {
  const value = metadata?.orderId;
  return value && isUuid(value) ? value : null;
};

/** The plan a subscription item's price stands for: its lookup key, its metadata, or its amount. */
async function planOfPrice(tx: Tx, price: Stripe.Price | undefined | null) {
  if (!price) return null;
  const plans = await tx.select().from(schema.plans);
  const key = price.lookup_key ?? price.metadata?.planId;
  return plans.find((plan) => plan.key === key) ?? plans.find((plan) => plan.priceCents === price.unit_amount) ?? null;
}

/**
 * Our row for a Stripe subscription: by its id, else (events can arrive before checkout's) by the
 * order id our checkout put in its metadata, which links it. Null: a subscription we never sold.
 */
async function findOurs(tx: Tx, stripeSubscriptionId: string, metadata: Record<string, string> | null | undefined) {
  const [byId] = await tx.select().from(schema.subscriptions).where(eq(schema.subscriptions.stripeSubscriptionId, stripeSubscriptionId)).limit(1);
  if (byId) return byId;
  const orderId = orderIdOf(metadata);
  if (!orderId) return null;
  const [linked] = await tx
    .update(schema.subscriptions)
    .set({ stripeSubscriptionId, updatedAt: new Date() })
    .where(and(eq(schema.subscriptions.orderId, orderId), sql`${schema.subscriptions.stripeSubscriptionId} is null`))
    .returning();
  return linked ?? null;
}

/** customer.subscription.*: mirror Stripe's status, period end, cancellation and plan onto our row. */
export async function syncSubscription(tx: Tx, subscription: Stripe.Subscription, deleted = false): Promise<boolean | string> {
  const ours = await findOurs(tx, subscription.id, subscription.metadata);
  if (!ours) {
    logger.info({ stripeSubscriptionId: subscription.id }, "subscription event for a subscription we did not sell: ignored");
    return "unknown-subscription";
  }
  const item = subscription.items?.data?.[0] as (Stripe.SubscriptionItem & { current_period_end?: number }) | undefined;
  const legacy = subscription as Stripe.Subscription & { current_period_end?: number };
  const plan = await planOfPrice(tx, item?.price);
  const periodEnd = toDate(item?.current_period_end ?? legacy.current_period_end);
  await tx
    .update(schema.subscriptions)
    .set({
      status: deleted ? "canceled" : subscription.status,
      ...(periodEnd ? { currentPeriodEnd: periodEnd } : {}),
      cancelAtPeriodEnd: deleted ? false : (subscription.cancel_at_period_end ?? false),
      ...(idOf(subscription.customer) ? { stripeCustomerId: idOf(subscription.customer) } : {}),
      ...(plan ? { planId: plan.key } : {}),
      ...(typeof item?.price?.unit_amount === "number" ? { priceCents: item.price.unit_amount } : plan ? { priceCents: plan.priceCents } : {}),
      updatedAt: new Date(),
    })
    .where(eq(schema.subscriptions.id, ours.id));
  if (deleted && ours.status !== "canceled") await emitEvent(tx, "subscription.cancelled", subscriptionEventData(ours, "canceled"));
  return deleted ? "canceled" : "updated";
}

/** The subscription an invoice belongs to, and the metadata our checkout left on it. */
export function invoiceSubscription(invoice: Stripe.Invoice): { id: string | null; metadata: Record<string, string> | null } {
  const details = invoice.parent?.subscription_details;
  const legacy = invoice as Stripe.Invoice & {
    subscription?: string | { id: string } | null;
    subscription_details?: { metadata?: Record<string, string> | null } | null;
  };
  const id = idOf(details?.subscription ?? legacy.subscription ?? null);
  const metadata = details?.metadata ?? legacy.subscription_details?.metadata ?? invoice.lines?.data?.[0]?.metadata ?? null;
  return { id, metadata };
}

export type InvoiceOutcome = "recorded" | "already-recorded" | "payment-failed" | "unknown-subscription" | "order-invoice" | "ignored";

/**
 * invoice.paid: the invoice is recorded once (a renewal is revenue) and the plan is active until the
 * paid period's end. invoice.payment_failed: the plan is past due and the customer is e-mailed.
 */
export async function applyInvoice(tx: Tx, invoice: Stripe.Invoice, paid: boolean): Promise<{ outcome: InvoiceOutcome; notify?: SubscriptionRow }> {
  const { id: stripeSubscriptionId, metadata } = invoiceSubscription(invoice);
  if (!stripeSubscriptionId) {
    // An a-la-carte order's invoice (invoice_creation): kept for the order's receipt link.
    const orderId = orderIdOf(invoice.metadata);
    if (!paid || !orderId) return { outcome: "ignored" };
    const [order] = await tx.select({ id: schema.orders.id, userId: schema.orders.userId }).from(schema.orders).where(eq(schema.orders.id, orderId)).limit(1);
    if (!order) return { outcome: "ignored" };
    await recordInvoice(tx, invoice, { orderId: order.id, userId: order.userId, subscriptionId: null, renewal: false });
    return { outcome: "order-invoice" };
  }
  const ours = await findOurs(tx, stripeSubscriptionId, metadata);
  if (!ours) {
    logger.info({ stripeSubscriptionId, invoiceId: invoice.id }, "invoice for a subscription we did not sell: ignored");
    return { outcome: "unknown-subscription" };
  }
  if (!paid) {
    await tx.update(schema.subscriptions).set({ status: "past_due", updatedAt: new Date() }).where(eq(schema.subscriptions.id, ours.id));
    return { outcome: "payment-failed", notify: ours };
  }
  // The first invoice's money is the plan order's; every later one is a renewal (or a switch's proration).
  const renewal = invoice.billing_reason !== "subscription_create";
  const recorded = await recordInvoice(tx, invoice, { orderId: renewal ? null : ours.orderId, userId: ours.userId, subscriptionId: ours.id, renewal });
  if (recorded && renewal) await recordRenewalOrder(tx, recorded, ours, await planPaidFor(tx, invoice, metadata, ours));
  if (recorded && invoice.billing_reason === "subscription_cycle") await emitEvent(tx, "subscription.renewed", subscriptionEventData(ours, "active"));
  const periodEnd = toDate(invoice.lines?.data?.[0]?.period?.end);
  const later = periodEnd && (!ours.currentPeriodEnd || periodEnd > ours.currentPeriodEnd);
  await tx
    .update(schema.subscriptions)
    .set({
      // A paid invoice settles a past-due plan; an ended plan stays ended.
      ...(ours.status === "canceled" ? {} : { status: "active" }),
      ...(later ? { currentPeriodEnd: periodEnd } : {}),
      updatedAt: new Date(),
    })
    .where(eq(schema.subscriptions.id, ours.id));
  return { outcome: recorded ? "recorded" : "already-recorded" };
}

/**
 * The plan an invoice's money is for. A switch's proration pays for the new plan, which the switch
 * names in the subscription's metadata (`planId`, see plan-switch.server.ts): the invoice may arrive
 * before or after the subscription's own update, so the plan row is not a safe witness.
 */
async function planPaidFor(tx: Tx, invoice: Stripe.Invoice, metadata: Record<string, string> | null, ours: SubscriptionRow): Promise<string> {
  const named = metadata?.planId;
  if (invoice.billing_reason !== "subscription_update" || !named || named === ours.planId) return ours.planId;
  const [plan] = await tx.select({ key: schema.plans.key }).from(schema.plans).where(eq(schema.plans.key, named)).limit(1);
  return plan?.key ?? ours.planId;
}

/**
 * A renewal is an order of its own (kind "renewal", the invoice's id as its id): the orders list, the
 * CSV and revenue read one table, and staff open, refund and follow it like any order (decision 175).
 */
async function recordRenewalOrder(tx: Tx, invoice: typeof schema.invoices.$inferSelect, subscription: SubscriptionRow, planId: string) {
  const [owner] = subscription.userId
    ? await tx.select({ email: schema.users.email, name: schema.users.name }).from(schema.users).where(eq(schema.users.id, subscription.userId))
    : [];
  const [signUp] =
    !owner && subscription.orderId
      ? await tx.select({ email: schema.orders.email, name: schema.orders.name }).from(schema.orders).where(eq(schema.orders.id, subscription.orderId))
      : [];
  const buyer = owner ?? signUp ?? { email: "", name: "" };
  await tx
    .insert(schema.orders)
    .values({
      id: invoice.id,
      kind: "renewal",
      email: buyer.email,
      name: buyer.name,
      userId: subscription.userId,
      status: "paid",
      totalCents: invoice.amountCents,
      currency: invoice.currency,
      planId,
      subscriptionId: subscription.id,
      stripePaymentIntentId: invoice.stripePaymentIntentId,
      stripeCustomerId: subscription.stripeCustomerId,
      paidAt: invoice.paidAt,
      createdAt: invoice.paidAt,
    })
    .onConflictDoNothing({ target: schema.orders.id });
  await tx.update(schema.invoices).set({ orderId: invoice.id }).where(eq(schema.invoices.id, invoice.id));
}

/** A failed renewal: the customer learns it, with a link that opens billing to fix the card. */
export async function sendPaymentFailedEmail(subscription: SubscriptionRow) {
  const [owner] = subscription.userId
    ? await db.select({ email: schema.users.email, name: schema.users.name }).from(schema.users).where(eq(schema.users.id, subscription.userId))
    : [];
  const [order] =
    !owner && subscription.orderId
      ? await db.select({ email: schema.orders.email, name: schema.orders.name }).from(schema.orders).where(eq(schema.orders.id, subscription.orderId))
      : [];
  const to = owner ?? order;
  if (!to) return;
  // The members of the client who look after billing, each once (a client of one: its owner).
  const billing = subscription.userId ? await membersWho(subscription.userId, "billing") : [];
  const plan = await planFor(subscription.planId);
  // The billing members' bell (docs/decisions/289); their e-mail follows their choice for billing.
  await notify(billing.length > 0 ? billing.map((member) => member.id) : subscription.userId ? [subscription.userId] : [], {
    kind: "billing",
    title: `Payment failed for your ${plan.name} plan`,
    body: "Update your card to keep your plan running.",
    url: "/dashboard/billing",
    instantEmail: false,
  }).catch((error: unknown) => logger.error({ err: error, subscriptionId: subscription.id }, "could not store the payment-failed notifications"));
  for (const person of billing) {
    if ((await notificationSettingsOf(person.id)).email.billing === "instant") await sendPaymentFailed(subscription, plan.name, person);
  }
  if (billing.length === 0) await sendPaymentFailed(subscription, plan.name, to);
}

async function sendPaymentFailed(subscription: SubscriptionRow, planName: string, to: { email: string; name: string }) {
  const plan = { name: planName };
  try {
    await sendEmail({
      to: to.email,
      category: "billing",
      subject: `Payment failed for your ${plan.name} plan`,
      heading: "We could not renew your plan",
      paragraphs: [
        `Hi ${to.name},`,
        `The monthly payment for your ${plan.name} plan did not go through, so your plan is now past due.`,
        "Please update your card to keep your plan running. We will try the payment again automatically.",
      ],
      action: { label: "Update your payment details", url: `${env.appUrl}/dashboard/billing` },
    });
  } catch (error) {
    logger.error({ err: error, subscriptionId: subscription.id }, "could not send the payment-failed e-mail");
  }
}
