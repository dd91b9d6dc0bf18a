import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

/*
 * Running the agency (decisions 090–094): refunds of orders and the e-mails sent about each order.
 * Money is integer cents; ids are UUIDs. The ids of orders and users are plain columns (this file
 * may not import ../schema, which re-exports it); an order's rows are deleted by its model.
 */

const id = () =>
  uuid("id")
    .primaryKey()
    .default(sql`gen_random_uuid()`);
const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();

export const REFUND_STATUSES = ["pending", "succeeded", "failed"] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

/**
 * One row per refund of an order, whoever started it (the dashboard's button or Stripe's own
 * dashboard, seen through charge.refunded). The button's row is written as `pending` before Stripe
 * is asked, so a retry or a second click cannot refund the same money twice; Stripe's refund id is
 * unique, so the webhook and the button converge on this one row. docs/decisions/090.
 */
export const refunds = pgTable(
  "refunds",
  {
    id: id(),
    orderId: uuid("order_id").notNull(),
    amountCents: integer("amount_cents").notNull(),
    currency: text("currency").notNull().default("usd"),
    status: text("status").$type<RefundStatus>().notNull().default("pending"),
    /** "dashboard" (our button or POST /api/orders/:id/refund) or "stripe" (refunded outside the app). */
    source: text("source").$type<"dashboard" | "stripe">().notNull(),
    /** Stripe's re_… id; null in test checkout (no Stripe) and while the Stripe call is under way. */
    stripeRefundId: text("stripe_refund_id"),
    /** The caller's idempotency key: the same key never refunds twice. */
    requestKey: text("request_key"),
    createdById: uuid("created_by_id"),
    /** Why staff refunded (asked by the dashboard's form, decision 176); null for Stripe's own and older refunds. */
    reason: text("reason"),
    failureMessage: text("failure_message"),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("refunds_stripe_refund_id_idx").on(t.stripeRefundId),
    uniqueIndex("refunds_request_key_idx").on(t.requestKey),
    index("refunds_order_idx").on(t.orderId, t.createdAt),
    check("refunds_amount_check", sql`${t.amountCents} > 0`),
    check("refunds_status_check", sql.raw(`"status" in (${REFUND_STATUSES.map((s) => `'${s}'`).join(", ")})`)),
    check("refunds_source_check", sql.raw(`"source" in ('dashboard', 'stripe')`)),
  ],
);

/** Every e-mail sent about an order (confirmation, set-password link, team notice, refund), for its page. */
export const orderEmails = pgTable(
  "order_emails",
  {
    id: id(),
    orderId: uuid("order_id").notNull(),
    kind: text("kind").notNull(),
    recipient: text("recipient").notNull(),
    subject: text("subject").notNull(),
    sentAt: createdAt(),
  },
  (t) => [index("order_emails_order_idx").on(t.orderId, t.sentAt)],
);
