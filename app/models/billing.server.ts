import crypto from "node:crypto";
import { and, desc, eq, isNotNull } from "drizzle-orm";

import { isLiveStatus } from "~/domain/billing";
import { centsToDollars, formatMoney } from "~/domain/format";
import { can, ownerKey, type Actor } from "~/domain/permissions";
import { db, schema } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import { HttpError } from "~/utils/http.server";
import { logger } from "~/utils/logger.server";
import { isTestCheckout, stripe, type Stripe } from "~/utils/stripe.server";

import { listPlans, type PlanRecord } from "./catalogue.server";
import { deliverTestEvent, handleStripeEvent } from "./payments.server";
import { previewPlanSwitch, switchPlan } from "./plan-switch.server";
import { getSubscriptionFor, listSubscriptionsForUser, type SubscriptionRow } from "./subscriptions.server";

/*
 * Billing self-service. With a Stripe key, "Manage billing" opens Stripe's customer portal and
 * every change comes back by webhook. On the embedded default, our test billing page stands in
 * for the portal: each button builds the Stripe object the portal would have produced and hands
 * it to the webhook's own dispatcher (handleStripeEvent), so both modes run the same code.
 */

export const TEST_BILLING_PATH = "/billing/test";

export const BILLING_MESSAGES = {
  noPlan: "You have no plan to manage yet.",
  alreadyCancelling: "This plan is already set to cancel at the end of the period.",
  notCancelling: "This plan is not set to cancel, so there is nothing to resume.",
  ended: "This plan has ended and cannot be changed. Choose a plan on our home page to subscribe again.",
  samePlan: "You are already on this plan.",
  unknownPlan: "Please choose one of our plans.",
  portalFailed: "We could not open billing right now. Please try again.",
  nothingToRetry: "This plan has no failed payment to retry.",
  retryFailed: "The payment failed again. Please update your payment method, then retry.",
  cardDeclined: "Your card was declined, so the payment failed. In test mode, use 4242 4242 4242 4242.",
  paid: "Payment received: your plan is active again.",
} as const;

/** A billing step's answer: what to tell the customer, and whether it is good news. */
export interface BillingOutcome {
  type: "success" | "error" | "info";
  message: string;
}

/** Where "Manage billing" goes: a Stripe customer portal session, or our test billing page. */
export async function billingPortalUrl(user: Actor): Promise<string> {
  if (!stripe) return TEST_BILLING_PATH;
  const [row] = await db
    .select({ customer: schema.subscriptions.stripeCustomerId })
    .from(schema.subscriptions)
    .where(and(eq(schema.subscriptions.userId, ownerKey(user)), isNotNull(schema.subscriptions.stripeCustomerId)))
    .orderBy(desc(schema.subscriptions.createdAt))
    .limit(1);
  const [order] = row
    ? []
    : await db
        .select({ customer: schema.orders.stripeCustomerId })
        .from(schema.orders)
        .where(and(eq(schema.orders.userId, ownerKey(user)), isNotNull(schema.orders.stripeCustomerId)))
        .orderBy(desc(schema.orders.createdAt))
        .limit(1);
  const customer = row?.customer ?? order?.customer;
  if (!customer) throw new HttpError(404, BILLING_MESSAGES.noPlan, "NO_BILLING_ACCOUNT");
  return portalUrl(stripe, user.id, { customer, return_url: `${env.appUrl}/dashboard/services` });
}

/** A Stripe billing portal session's address; Stripe failing is a 502 in the error shape. */
async function portalUrl(client: Stripe, userId: string, params: Stripe.BillingPortal.SessionCreateParams): Promise<string> {
  try {
    return (await client.billingPortal.sessions.create(params)).url;
  } catch (error) {
    logger.warn({ err: error, userId, flow: params.flow_data?.type ?? "portal" }, "creating the billing portal session failed");
    throw new HttpError(502, BILLING_MESSAGES.portalFailed, "UPSTREAM_ERROR");
  }
}

/**
 * "Update payment method" of a past-due plan: Stripe's portal opened straight on its payment-method
 * flow (coming back to the plan), or the payment step of our test billing page.
 */
export async function paymentMethodUrl(user: Actor, subscriptionId: string): Promise<string> {
  const row = await getSubscriptionFor(user, subscriptionId);
  if (row.userId !== ownerKey(user) || !can(user, "billing:manage")) throw new HttpError(404, "Plan not found.");
  if (!stripe) return `${TEST_BILLING_PATH}#payment-${row.id}`;
  if (!row.stripeCustomerId) throw new HttpError(404, BILLING_MESSAGES.noPlan, "NO_BILLING_ACCOUNT");
  const planPage = `${env.appUrl}/dashboard/plans/${row.id}`;
  return portalUrl(stripe, user.id, {
    customer: row.stripeCustomerId,
    return_url: planPage,
    flow_data: { type: "payment_method_update", after_completion: { type: "redirect", redirect: { return_url: planPage } } },
  });
}

/**
 * "Retry payment" of a past-due plan: Stripe is asked to pay the plan's open invoice with the
 * payment method on file now; a success is applied at once through the webhook's dispatcher (the
 * invoice.paid that follows changes nothing more: invoices are recorded once). A refusal is a 402
 * that says to update the payment method. In test mode the payment goes through.
 */
export async function retryPayment(user: Actor, subscriptionId: string): Promise<BillingOutcome> {
  const row = await getSubscriptionFor(user, subscriptionId);
  if (row.userId !== ownerKey(user) || !can(user, "billing:manage")) throw new HttpError(404, "Plan not found.");
  if (row.status !== "past_due" && row.status !== "unpaid") throw new HttpError(409, BILLING_MESSAGES.nothingToRetry, "NOTHING_TO_RETRY");
  if (!stripe) return payTestRenewal(row);
  if (!row.stripeSubscriptionId) throw new HttpError(409, BILLING_MESSAGES.nothingToRetry, "NOTHING_TO_RETRY");
  let open: Stripe.Invoice | undefined;
  try {
    open = (await stripe.invoices.list({ subscription: row.stripeSubscriptionId, status: "open", limit: 1 })).data[0];
  } catch (error) {
    logger.warn({ err: error, subscriptionId: row.id }, "listing the plan's open invoices failed");
    throw new HttpError(502, BILLING_MESSAGES.portalFailed, "UPSTREAM_ERROR");
  }
  if (!open?.id) throw new HttpError(409, BILLING_MESSAGES.nothingToRetry, "NOTHING_TO_RETRY");
  let paid: Stripe.Invoice;
  try {
    paid = await stripe.invoices.pay(open.id, {}, { idempotencyKey: `retry-${open.id}-${crypto.randomBytes(6).toString("hex")}` });
  } catch (error) {
    const card = error instanceof Error && (error as { type?: string }).type === "StripeCardError";
    logger.info({ err: error, subscriptionId: row.id }, "retrying the plan's payment failed");
    if (card) throw new HttpError(402, BILLING_MESSAGES.retryFailed, "PAYMENT_FAILED");
    throw new HttpError(502, BILLING_MESSAGES.portalFailed, "UPSTREAM_ERROR");
  }
  await handleStripeEvent({ id: `evt_retry_${paid.id}`, type: "invoice.paid", data: { object: paid } });
  return { type: "success", message: BILLING_MESSAGES.paid };
}

/** The test billing page's card step: a declined test card fails the payment again, any other pays it. */
export async function updateTestPaymentMethod(user: Actor, subscriptionId: string, cardNumber: string): Promise<BillingOutcome> {
  if (!isTestCheckout()) throw new HttpError(404, "Not found.");
  const row = await getSubscriptionFor(user, subscriptionId);
  if (row.userId !== ownerKey(user) || !can(user, "billing:manage")) throw new HttpError(404, "Plan not found.");
  if (row.status !== "past_due" && row.status !== "unpaid") throw new HttpError(409, BILLING_MESSAGES.nothingToRetry, "NOTHING_TO_RETRY");
  if (cardNumber.replace(/\D/g, "") !== "4242424242424242") {
    const start = row.currentPeriodEnd ?? new Date();
    await deliverTestEvent("invoice.payment_failed", stripeInvoice(row, start, addMonth(start), "subscription_cycle"));
    throw new HttpError(402, BILLING_MESSAGES.cardDeclined, "PAYMENT_FAILED");
  }
  return payTestRenewal(row);
}

/** Test mode: the failed renewal is paid now, for the month that follows the period that ended. */
async function payTestRenewal(row: SubscriptionRow): Promise<BillingOutcome> {
  const start = row.currentPeriodEnd ?? new Date();
  const end = addMonth(start);
  await deliverTestEvent("invoice.paid", stripeInvoice(row, start, end, "subscription_cycle"));
  await deliverTestEvent("customer.subscription.updated", stripeSubscription(row, { status: "active", periodEnd: end }));
  return { type: "success", message: BILLING_MESSAGES.paid };
}

export type TestBillingAction = "cancel" | "resume" | "switch" | "renew" | "fail";

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);
const addMonth = (date: Date) => {
  const next = new Date(date);
  next.setUTCMonth(next.getUTCMonth() + 1);
  return next;
};

/** What Stripe would send about this subscription after a change. */
function stripeSubscription(row: SubscriptionRow, changes: { status?: string; cancelAtPeriodEnd?: boolean; plan?: PlanRecord; periodEnd?: Date }) {
  const plan = changes.plan;
  const periodEnd = changes.periodEnd ?? row.currentPeriodEnd ?? addMonth(new Date());
  return {
    id: row.stripeSubscriptionId!,
    object: "subscription",
    status: changes.status ?? row.status,
    cancel_at_period_end: changes.cancelAtPeriodEnd ?? row.cancelAtPeriodEnd,
    customer: row.stripeCustomerId,
    metadata: { orderId: row.orderId ?? "" },
    items: {
      data: [
        {
          current_period_end: seconds(periodEnd),
          price: {
            unit_amount: plan?.priceCents ?? row.priceCents,
            currency: row.currency,
            lookup_key: plan?.key ?? row.planId,
            metadata: { planId: plan?.key ?? row.planId },
          },
        },
      ],
    },
  };
}

function stripeInvoice(row: SubscriptionRow, start: Date, end: Date, billingReason: string) {
  return {
    id: `in_test_${crypto.randomBytes(10).toString("hex")}`,
    object: "invoice",
    billing_reason: billingReason,
    amount_paid: row.priceCents,
    currency: row.currency,
    hosted_invoice_url: null,
    status_transitions: { paid_at: seconds(new Date()) },
    lines: { data: [{ period: { start: seconds(start), end: seconds(end) } }] },
    parent: { subscription_details: { subscription: row.stripeSubscriptionId, metadata: { orderId: row.orderId ?? "" } } },
  };
}

/** A plan set to cancel whose period is over ends, as Stripe's customer.subscription.deleted would say. */
async function endIfLapsed(row: SubscriptionRow): Promise<SubscriptionRow> {
  if (!isLiveStatus(row.status) || !row.cancelAtPeriodEnd || !row.currentPeriodEnd || row.currentPeriodEnd > new Date()) return row;
  await deliverTestEvent("customer.subscription.deleted", stripeSubscription(row, { status: "canceled", cancelAtPeriodEnd: false }));
  return { ...row, status: "canceled", cancelAtPeriodEnd: false };
}

/** The test billing page's list: the customer's plans, lapsed ones ended first. */
export async function testBillingSubscriptions(userId: string) {
  const rows = await listSubscriptionsForUser(userId);
  return Promise.all(rows.map(endIfLapsed));
}

/** The customer's own live plan on the test billing page (404 otherwise, 409 once it has ended). */
async function testBillingRow(actor: Actor, subscriptionId: string): Promise<SubscriptionRow> {
  if (!isTestCheckout()) throw new HttpError(404, "Not found.");
  const row = await endIfLapsed(await getSubscriptionFor(actor, subscriptionId));
  if (row.userId !== ownerKey(actor) || !can(actor, "billing:manage")) throw new HttpError(404, "Plan not found.");
  if (!isLiveStatus(row.status) || !row.stripeSubscriptionId) throw new HttpError(409, BILLING_MESSAGES.ended, "PLAN_ENDED");
  return row;
}

/** The test billing page's confirmation of a switch: the price today and from the next period. */
export async function previewTestSwitch(actor: Actor, subscriptionId: string, planKey: string) {
  return previewPlanSwitch(await testBillingRow(actor, subscriptionId), planKey);
}

/** The test billing page's confirmation of a cancellation: until when the plan runs. */
export async function testBillingPlan(actor: Actor, subscriptionId: string) {
  return testBillingRow(actor, subscriptionId);
}

/**
 * One change on the test billing page. The rules are Stripe's portal's: a plan set to cancel cannot
 * be cancelled again, only a plan set to cancel can be resumed, an ended plan changes no more.
 */
export async function changeTestSubscription(
  actor: Actor,
  subscriptionId: string,
  action: TestBillingAction,
  planKey?: string,
  prorationDate?: number,
): Promise<BillingOutcome> {
  const row = await testBillingRow(actor, subscriptionId);
  switch (action) {
    case "cancel":
      if (row.cancelAtPeriodEnd) throw new HttpError(409, BILLING_MESSAGES.alreadyCancelling, "ALREADY_CANCELLING");
      await deliverTestEvent("customer.subscription.updated", stripeSubscription(row, { cancelAtPeriodEnd: true }));
      return { type: "success", message: "Your plan will end at the end of the current period." };
    case "resume":
      if (!row.cancelAtPeriodEnd) throw new HttpError(409, BILLING_MESSAGES.notCancelling, "NOT_CANCELLING");
      await deliverTestEvent("customer.subscription.updated", stripeSubscription(row, { cancelAtPeriodEnd: false }));
      return { type: "success", message: "Your plan will renew as usual." };
    case "switch": {
      // Prorated and charged now, at the instant the preview was priced (plan-switch.server.ts).
      const { plan, chargedCents } = await switchPlan(row, planKey ?? "", prorationDate ?? Math.floor(Date.now() / 1000));
      const charged = chargedCents ? ` ${formatMoney(centsToDollars(chargedCents), row.currency)} was charged for the rest of this period.` : "";
      return { type: "success", message: `Your plan is now ${plan.name}.${charged}` };
    }
    case "renew": {
      // The period ends: a plan set to cancel ends, any other renews for a month and is paid.
      if (row.cancelAtPeriodEnd) {
        await deliverTestEvent("customer.subscription.deleted", stripeSubscription(row, { status: "canceled", cancelAtPeriodEnd: false }));
        return { type: "info", message: "Your plan has ended." };
      }
      const start = row.currentPeriodEnd ?? new Date();
      const end = addMonth(start);
      await deliverTestEvent("invoice.paid", stripeInvoice(row, start, end, "subscription_cycle"));
      await deliverTestEvent("customer.subscription.updated", stripeSubscription(row, { status: "active", periodEnd: end }));
      return { type: "success", message: "Your plan renewed for another month." };
    }
    case "fail": {
      const start = row.currentPeriodEnd ?? new Date();
      await deliverTestEvent("invoice.payment_failed", stripeInvoice(row, start, addMonth(start), "subscription_cycle"));
      return { type: "error", message: "The renewal payment failed: your plan is past due. Update the payment method below, then retry." };
    }
  }
}

export const switchablePlans = async () => (await listPlans()).map((plan) => ({ key: plan.key, name: plan.name, priceCents: plan.priceCents }));
