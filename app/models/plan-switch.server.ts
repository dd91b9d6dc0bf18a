import crypto from "node:crypto";

import { isLiveStatus } from "~/domain/billing";
import { db } from "~/utils/db.server";
import { HttpError } from "~/utils/http.server";
import { logger } from "~/utils/logger.server";
import { stripe, type Stripe } from "~/utils/stripe.server";

import { findPlan, type PlanRecord } from "./catalogue.server";
import { membersWho } from "./clients.server";
import { notify } from "./notifications.server";
import { deliverTestEvent } from "./payments.server";
import { syncSubscription, type SubscriptionRow } from "./subscriptions.server";

/*
 * Switching a plan with a price preview and proration (docs/decisions/177). The
 * switch is charged now: the new plan's price for the time left in the period, less the unused
 * time of the old one (Stripe's `always_invoice`). With a Stripe key the preview is Stripe's
 * (invoices.createPreview) and the switch its subscriptions.update at the same proration instant;
 * in test mode the same arithmetic is done here and the switch's invoice is handed to the
 * webhook's dispatcher like the test billing page's other buttons. Either way the proration's
 * invoice is a `subscription_update`: an order of kind renewal (decision 175) for the new plan, named
 * "Switch to <plan>, prorated" everywhere (decision 264).
 */

export const SWITCH_MESSAGES = {
  ended: "This plan has ended and cannot be changed. Choose a plan on our home page to subscribe again.",
  samePlan: "You are already on this plan.",
  unknownPlan: "Please choose one of our plans.",
  stripeFailed: "Stripe could not price this change right now. Please try again.",
  noStripe: "This plan has no Stripe subscription on record here.",
} as const;

export interface SwitchPreview {
  from: { key: string; name: string; priceCents: number };
  to: { key: string; name: string; priceCents: number };
  currency: string;
  /** The old plan's unused time, credited (cents, ≥ 0). */
  creditCents: number;
  /** The new plan for the time left in the period (cents, ≥ 0). */
  chargeCents: number;
  /** Charged today: charge − credit, never below 0. */
  dueNowCents: number;
  /** A downgrade's surplus credit, taken off the next invoices. */
  carriedCreditCents: number;
  periodEnd: string | null;
  /** The instant the proration is computed at (seconds); the confirmed switch uses the same one. */
  prorationDate: number;
}

const DAY = 86_400;

async function targetPlan(row: SubscriptionRow, planKey: string): Promise<PlanRecord> {
  if (!isLiveStatus(row.status) || !row.stripeSubscriptionId) throw new HttpError(409, SWITCH_MESSAGES.ended, "PLAN_ENDED");
  const plan = planKey ? await findPlan(planKey) : null;
  if (!plan) throw new HttpError(400, SWITCH_MESSAGES.unknownPlan, "UNKNOWN_PLAN");
  if (plan.key === row.planId) throw new HttpError(409, SWITCH_MESSAGES.samePlan, "SAME_PLAN");
  return plan;
}

/** A month before the period's end: when the period started (Stripe bills plans monthly). */
function periodStart(end: Date) {
  const start = new Date(end);
  start.setUTCMonth(start.getUTCMonth() - 1);
  return start;
}

/** The share of the current period still to come at `at` (seconds), between 0 and 1. */
function periodLeft(row: SubscriptionRow, at: number) {
  const end = row.currentPeriodEnd ?? new Date((at + 30 * DAY) * 1000);
  const endSeconds = Math.floor(end.getTime() / 1000);
  const startSeconds = Math.floor(periodStart(end).getTime() / 1000);
  return Math.min(1, Math.max(0, (endSeconds - at) / Math.max(1, endSeconds - startSeconds)));
}

/** Test mode: Stripe's proration, line by line (each rounded to the cent), for the time left at `at`. */
function prorate(row: SubscriptionRow, plan: PlanRecord, at: number) {
  const left = periodLeft(row, at);
  return { creditCents: Math.round(row.priceCents * left), chargeCents: Math.round(plan.priceCents * left) };
}

/** The plan's unused time at `at` (seconds), in cents: what Stripe's proration credits when it ends now. */
export function unusedPartCents(row: SubscriptionRow, at: number): number {
  return Math.round(row.priceCents * periodLeft(row, at));
}

/** The item and product of our Stripe subscription, for a new price on the same product. */
async function stripeItem(client: Stripe, row: SubscriptionRow) {
  const subscription = await client.subscriptions.retrieve(row.stripeSubscriptionId!);
  const item = subscription.items.data[0];
  const product = typeof item.price.product === "string" ? item.price.product : item.price.product.id;
  return { subscription, item, product };
}

const priceData = (plan: PlanRecord, product: string) => ({
  currency: plan.currency,
  product,
  unit_amount: plan.priceCents,
  recurring: { interval: "month" as const },
});

/** What switching to `planKey` costs today, and what it costs from the next period. */
export async function previewPlanSwitch(row: SubscriptionRow, planKey: string, now = new Date()): Promise<SwitchPreview> {
  const plan = await targetPlan(row, planKey);
  const from = await findPlan(row.planId);
  const prorationDate = Math.floor(now.getTime() / 1000);
  let creditCents: number;
  let chargeCents: number;
  let dueNowCents: number;
  if (stripe) {
    try {
      const { subscription, item, product } = await stripeItem(stripe, row);
      const invoice = await stripe.invoices.createPreview({
        customer: typeof subscription.customer === "string" ? subscription.customer : subscription.customer.id,
        subscription: subscription.id,
        subscription_details: {
          items: [{ id: item.id, price_data: priceData(plan, product) }],
          proration_behavior: "always_invoice",
          proration_date: prorationDate,
        },
      });
      const amounts = (invoice.lines?.data ?? []).map((line) => line.amount);
      creditCents = -amounts.filter((a) => a < 0).reduce((sum, a) => sum + a, 0);
      chargeCents = amounts.filter((a) => a > 0).reduce((sum, a) => sum + a, 0);
      dueNowCents = invoice.amount_due ?? Math.max(0, chargeCents - creditCents);
    } catch (error) {
      logger.warn({ err: error, subscriptionId: row.id }, "Stripe could not preview a plan switch");
      throw new HttpError(502, SWITCH_MESSAGES.stripeFailed, "UPSTREAM_ERROR");
    }
  } else {
    ({ creditCents, chargeCents } = prorate(row, plan, prorationDate));
    dueNowCents = Math.max(0, chargeCents - creditCents);
  }
  return {
    from: { key: row.planId, name: from?.name ?? row.planId, priceCents: row.priceCents },
    to: { key: plan.key, name: plan.name, priceCents: plan.priceCents },
    currency: row.currency,
    creditCents,
    chargeCents,
    dueNowCents,
    carriedCreditCents: Math.max(0, creditCents - chargeCents),
    periodEnd: row.currentPeriodEnd?.toISOString() ?? null,
    prorationDate,
  };
}

/**
 * Switches the plan, prorated at `prorationDate` (the preview's instant, so the customer pays what
 * they were shown). Returns what was charged today. The client's billing members are told
 * (docs/decisions/289).
 */
export async function switchPlan(row: SubscriptionRow, planKey: string, prorationDate: number): Promise<{ plan: PlanRecord; chargedCents: number | null }> {
  const switched = await applyPlanSwitch(row, planKey, prorationDate);
  if (row.userId) {
    const billing = await membersWho(row.userId, "billing").catch(() => []);
    await notify(billing.length > 0 ? billing.map((member) => member.id) : [row.userId], {
      kind: "billing",
      title: `Your plan is now ${switched.plan.name}`,
      url: `/dashboard/plans/${row.id}`,
    }).catch((error: unknown) => logger.warn({ err: error, subscriptionId: row.id }, "could not store the plan change notifications"));
  }
  return switched;
}

async function applyPlanSwitch(row: SubscriptionRow, planKey: string, prorationDate: number): Promise<{ plan: PlanRecord; chargedCents: number | null }> {
  const plan = await targetPlan(row, planKey);
  const now = Math.floor(Date.now() / 1000);
  // A preview older than a day (or from the future) is priced again now.
  const at = prorationDate <= now && prorationDate > now - DAY ? prorationDate : now;
  if (stripe) {
    try {
      const { item, product } = await stripeItem(stripe, row);
      const updated = await stripe.subscriptions.update(row.stripeSubscriptionId!, {
        items: [{ id: item.id, price_data: priceData(plan, product) }],
        proration_behavior: "always_invoice",
        proration_date: at,
        // The proration's invoice carries the subscription's metadata: it names the plan paid for.
        metadata: { planId: plan.key },
        expand: ["latest_invoice"],
      });
      await db.transaction((tx) => syncSubscription(tx, updated));
      // The proration's invoice is recorded when invoice.paid arrives (billing reason subscription_update).
      const invoice = updated.latest_invoice;
      return { plan, chargedCents: invoice && typeof invoice === "object" ? (invoice.amount_paid ?? null) : null };
    } catch (error) {
      logger.warn({ err: error, subscriptionId: row.id }, "Stripe could not switch a plan");
      throw new HttpError(502, SWITCH_MESSAGES.stripeFailed, "UPSTREAM_ERROR");
    }
  }
  const { creditCents, chargeCents } = prorate(row, plan, at);
  const due = Math.max(0, chargeCents - creditCents);
  const periodEnd = row.currentPeriodEnd ?? new Date((at + 30 * DAY) * 1000);
  const ref = { orderId: row.orderId ?? "" };
  if (due > 0) {
    await deliverTestEvent("invoice.paid", {
      id: `in_test_${crypto.randomBytes(10).toString("hex")}`,
      object: "invoice",
      billing_reason: "subscription_update",
      amount_paid: due,
      currency: row.currency,
      hosted_invoice_url: null,
      status_transitions: { paid_at: now },
      lines: { data: [{ period: { start: at, end: Math.floor(periodEnd.getTime() / 1000) } }] },
      parent: { subscription_details: { subscription: row.stripeSubscriptionId, metadata: { ...ref, planId: plan.key } } },
    });
  }
  await deliverTestEvent("customer.subscription.updated", {
    id: row.stripeSubscriptionId,
    object: "subscription",
    status: row.status,
    cancel_at_period_end: row.cancelAtPeriodEnd,
    customer: row.stripeCustomerId,
    metadata: ref,
    items: {
      data: [
        {
          current_period_end: Math.floor(periodEnd.getTime() / 1000),
          price: { unit_amount: plan.priceCents, currency: plan.currency, lookup_key: plan.key, metadata: { planId: plan.key } },
        },
      ],
    },
  });
  return { plan, chargedCents: due };
}
