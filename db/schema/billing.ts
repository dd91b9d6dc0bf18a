import { sql } from "drizzle-orm";
import { boolean, check, index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

/*
 * Billing (decisions 085–089): the paid invoices of subscriptions (renewals are revenue) and e-mail change
 * confirmations. Money is integer cents; ids are UUIDs. The ids of users, orders and subscriptions
 * are plain columns (this file may not import ../schema, which re-exports it); the models delete
 * with their owners where it matters.
 */

const id = () =>
  uuid("id")
    .primaryKey()
    .default(sql`gen_random_uuid()`);
const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();

/**
 * One row per paid invoice of a subscription, recorded once (unique Stripe invoice id).
 * `renewal` is true when its money is not already counted in an order: every invoice after the
 * first (billing_reason subscription_cycle, and a plan switch's subscription_update).
 */
export const invoices = pgTable(
  "invoices",
  {
    id: id(),
    stripeInvoiceId: text("stripe_invoice_id").notNull().unique(),
    subscriptionId: uuid("subscription_id"),
    userId: uuid("user_id"),
    orderId: uuid("order_id"),
    renewal: boolean("renewal").notNull(),
    billingReason: text("billing_reason"),
    amountCents: integer("amount_cents").notNull(),
    refundedCents: integer("refunded_cents").notNull().default(0),
    currency: text("currency").notNull().default("usd"),
    paidAt: timestamp("paid_at", { withTimezone: true }).notNull(),
    periodStart: timestamp("period_start", { withTimezone: true }),
    periodEnd: timestamp("period_end", { withTimezone: true }),
    hostedInvoiceUrl: text("hosted_invoice_url"),
    stripePaymentIntentId: text("stripe_payment_intent_id"),
    stripeChargeId: text("stripe_charge_id"),
    createdAt: createdAt(),
  },
  (t) => [
    index("invoices_user_paid_idx").on(t.userId, t.paidAt),
    index("invoices_subscription_idx").on(t.subscriptionId),
    index("invoices_renewal_paid_idx").on(t.renewal, t.paidAt),
    index("invoices_payment_intent_idx").on(t.stripePaymentIntentId),
    check("invoices_amounts_check", sql`${t.amountCents} >= 0 and ${t.refundedCents} >= 0 and ${t.refundedCents} <= ${t.amountCents}`),
  ],
);

/**
 * A link that sets an account's e-mail: a 256-bit secret stored hashed, single use. `change`: sent
 * to the new address (one hour); `undo`: sent to the old address once a change is made, restoring
 * it (seven days; docs/decisions/126-email-change-password-and-undo.md).
 */
export const emailChanges = pgTable(
  "email_changes",
  {
    id: id(),
    userId: uuid("user_id").notNull(),
    purpose: text("purpose").$type<"change" | "undo">().notNull().default("change"),
    newEmail: text("new_email").notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index("email_changes_user_idx").on(t.userId), check("email_changes_purpose_check", sql`${t.purpose} in ('change', 'undo')`)],
);
