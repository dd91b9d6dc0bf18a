import { relations, sql } from "drizzle-orm";
import { boolean, check, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid, type AnyPgColumn } from "drizzle-orm/pg-core";

import { ORDER_STATUSES, PURCHASE_STATUSES, ROLES, type OrderStatus, type PurchaseStatus, type Role } from "../../app/domain/status";

/*
 * Money is integer cents, ids are UUIDs, times are timestamptz.
 * Status columns are text with CHECK constraints rather than pg enums, so that
 * adding a value is a plain migration and the SQL carries no schema-qualified types.
 */

const id = () =>
  uuid("id")
    .primaryKey()
    .default(sql`gen_random_uuid()`);
const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp("updated_at", { withTimezone: true }).notNull().defaultNow();

export { ROLES, PURCHASE_STATUSES, ORDER_STATUSES } from "../../app/domain/status";
export type { Role, PurchaseStatus, OrderStatus } from "../../app/domain/status";

const inList = (column: string, values: readonly string[]) => sql.raw(`"${column}" in (${values.map((v) => `'${v}'`).join(", ")})`);

export const users = pgTable(
  "users",
  {
    id: id(),
    email: text("email").notNull(),
    name: text("name").notNull(),
    role: text("role").$type<Role>().notNull().default("user"),
    passwordHash: text("password_hash"),
    profileImage: text("profile_image"),
    disabledAt: timestamp("disabled_at", { withTimezone: true }),
    /** The first dashboard visit ("Welcome"; every later one is "Welcome back"). */
    welcomedAt: timestamp("welcomed_at", { withTimezone: true }),
    /** The person's IANA time zone: their morning digest goes at 08:00 there (docs/decisions/290). */
    timeZone: text("time_zone").notNull().default("UTC"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("users_email_lower_idx").on(sql`lower(${t.email})`),
    // The inbox search by name or e-mail (docs/decisions/095).
    index("users_search_idx").using("gin", sql`to_tsvector('simple', ${t.name} || ' ' || ${t.email})`),
    // Customer lists and the search's newest-first step walk it, ties in order by id.
    index("users_role_created_idx").on(t.role, t.createdAt, t.id),
    check("users_role_check", inList("role", ROLES)),
  ],
);

/** Browser sessions (kind "cookie") and API bearer tokens (kind "bearer"); only a SHA-256 of the secret is stored. */
export const sessions = pgTable(
  "sessions",
  {
    id: id(),
    tokenHash: text("token_hash").notNull().unique(),
    kind: text("kind").$type<"cookie" | "bearer">().notNull(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: createdAt(),
    /** The device, as its User-Agent named it, and when the session was last used (minute precision). */
    userAgent: text("user_agent"),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }),
  },
  (t) => [index("sessions_user_idx").on(t.userId), check("sessions_kind_check", inList("kind", ["cookie", "bearer"]))],
);

/** Password-reset and set-password links: 256-bit secrets stored hashed, single use. */
export const passwordTokens = pgTable(
  "password_tokens",
  {
    id: id(),
    tokenHash: text("token_hash").notNull().unique(),
    purpose: text("purpose").$type<"reset" | "set">().notNull(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index("password_tokens_user_idx").on(t.userId), check("password_tokens_purpose_check", inList("purpose", ["reset", "set"]))],
);

export const services = pgTable(
  "services",
  {
    id: id(),
    slug: text("slug").notNull().unique(),
    name: text("name").notNull(),
    description: text("description"),
    priceCents: integer("price_cents").notNull(),
    currency: text("currency").notNull().default("usd"),
    active: boolean("active").notNull().default(true),
    sortOrder: integer("sort_order").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    check("services_price_check", sql`${t.priceCents} >= 0`),
    // Names are unique among the services staff see; the hidden rows behind packages and plans
    // (slugs package-… and plan-…) are named after them and stay out (decision 075).
    uniqueIndex("services_name_unique_idx")
      .on(sql`lower(${t.name})`)
      .where(sql`${t.slug} not like 'package-%' and ${t.slug} not like 'plan-%'`),
    // Staff search (/dashboard/search, decision 190): the words of the name and description.
    index("services_search_idx").using("gin", sql`to_tsvector('simple', ${t.name} || ' ' || coalesce(${t.description}, ''))`),
  ],
);

export const orders = pgTable(
  "orders",
  {
    id: id(),
    /** "subscription": a plan's sign-up (its first month); "renewal": a later month or a switch's proration (decision 175). */
    kind: text("kind").$type<"services" | "subscription" | "renewal">().notNull().default("services"),
    email: text("email").notNull(),
    name: text("name").notNull(),
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    status: text("status").$type<OrderStatus>().notNull().default("pending"),
    totalCents: integer("total_cents").notNull(),
    /** What has been refunded so far (db/schema/ops.ts refunds); revenue counts total - refunded. */
    refundedCents: integer("refunded_cents").notNull().default(0),
    currency: text("currency").notNull().default("usd"),
    planId: text("plan_id"),
    /** A renewal's subscription (a sign-up's is `subscriptions.order_id`); a plain column, as subscriptions reference orders. */
    subscriptionId: uuid("subscription_id"),
    stripeSessionId: text("stripe_session_id").unique(),
    stripePaymentIntentId: text("stripe_payment_intent_id"),
    stripeCustomerId: text("stripe_customer_id"),
    paidAt: timestamp("paid_at", { withTimezone: true }),
    /** When the pending-order sweep last asked Stripe about this order (its claim: one node per order; decision 241). */
    checkoutCheckedAt: timestamp("checkout_checked_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("orders_user_idx").on(t.userId),
    index("orders_payment_intent_idx").on(t.stripePaymentIntentId),
    index("orders_subscription_idx")
      .on(t.subscriptionId, t.createdAt)
      .where(sql`${t.subscriptionId} is not null`),
    // The orders list (newest first, by status) and the revenue series (by month paid): docs/decisions/092.
    index("orders_created_idx").on(t.createdAt, t.id),
    index("orders_status_created_idx").on(t.status, t.createdAt, t.id),
    index("orders_paid_revenue_idx")
      .on(t.paidAt, t.status, t.totalCents, t.refundedCents)
      .where(sql`${t.paidAt} is not null`),
    // Staff search (/dashboard/search, decision 190): the buyer's name and e-mail and the receipt number (BL-1A2B3C4D).
    index("orders_search_idx").using("gin", sql`to_tsvector('simple', ${t.name} || ' ' || ${t.email} || ' bl-' || left(${t.id}::text, 8))`),
    check("orders_refunded_check", sql`${t.refundedCents} >= 0 and ${t.refundedCents} <= ${t.totalCents}`),
    check("orders_status_check", inList("status", ORDER_STATUSES)),
    check("orders_kind_check", inList("kind", ["services", "subscription", "renewal"])),
  ],
);

export const purchases = pgTable(
  "purchases",
  {
    id: id(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    serviceId: uuid("service_id")
      .notNull()
      .references(() => services.id, { onDelete: "restrict" }),
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    amountCents: integer("amount_cents").notNull(),
    currency: text("currency").notNull().default("usd"),
    quantity: integer("quantity").notNull().default(1),
    status: text("status").$type<PurchaseStatus>().notNull().default("pending"),
    completedAt: timestamp("completed_at", { withTimezone: true }),
    /** The staff member doing the work and when it is due ("My work", decision 155). */
    assigneeId: uuid("assignee_id").references((): AnyPgColumn => users.id, { onDelete: "set null" }),
    dueAt: timestamp("due_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("purchases_user_created_idx").on(t.userId, t.createdAt),
    index("purchases_assignee_due_idx")
      .on(t.assigneeId, t.dueAt)
      .where(sql`${t.assigneeId} is not null`),
    index("purchases_order_idx").on(t.orderId),
    index("purchases_status_idx").on(t.status),
    check("purchases_status_check", inList("status", PURCHASE_STATUSES)),
    check("purchases_quantity_check", sql`${t.quantity} > 0`),
  ],
);

export const subscriptions = pgTable(
  "subscriptions",
  {
    id: id(),
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    orderId: uuid("order_id").references(() => orders.id, { onDelete: "set null" }),
    planId: text("plan_id").notNull(),
    status: text("status").notNull().default("incomplete"),
    priceCents: integer("price_cents").notNull(),
    currency: text("currency").notNull().default("usd"),
    stripeSubscriptionId: text("stripe_subscription_id").unique(),
    stripeCustomerId: text("stripe_customer_id"),
    currentPeriodEnd: timestamp("current_period_end", { withTimezone: true }),
    cancelAtPeriodEnd: boolean("cancel_at_period_end").notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("subscriptions_user_idx").on(t.userId), index("subscriptions_order_idx").on(t.orderId)],
);

export const reports = pgTable(
  "reports",
  {
    id: id(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    serviceId: uuid("service_id")
      .notNull()
      .references(() => services.id, { onDelete: "restrict" }),
    purchaseId: uuid("purchase_id").references(() => purchases.id, { onDelete: "set null" }),
    /** A plan's report: the subscription and the month ("2026-11") it covers. */
    subscriptionId: uuid("subscription_id").references(() => subscriptions.id, { onDelete: "set null" }),
    period: text("period"),
    uploadedById: uuid("uploaded_by_id").references(() => users.id, { onDelete: "set null" }),
    title: text("title").notNull(),
    description: text("description"),
    fileName: text("file_name").notNull(),
    fileSize: integer("file_size").notNull(),
    mimeType: text("mime_type").notNull(),
    storageKey: text("storage_key").notNull().unique(),
    createdAt: createdAt(),
    /** The file above is this version; earlier ones are in report_versions (decision 221). */
    version: integer("version").notNull().default(1),
    /** Staff's note on the current version (why it was replaced). */
    versionNote: text("version_note"),
    /** When the current file was uploaded, if it replaced an earlier one (else createdAt). */
    fileUpdatedAt: timestamp("file_updated_at", { withTimezone: true }),
    /** Deleted by staff: customers no longer see it; purged with its files 30 days later. */
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
    deletedById: uuid("deleted_by_id").references(() => users.id, { onDelete: "set null" }),
  },
  (t) => [
    index("reports_user_created_idx").on(t.userId, t.createdAt),
    index("reports_user_service_idx").on(t.userId, t.serviceId),
    index("reports_deleted_idx")
      .on(t.deletedAt)
      .where(sql`${t.deletedAt} is not null`),
  ],
);

/** Chat messages. roomId is `support-{customerId}` or two sorted user ids joined by "-". */
export const chatMessages = pgTable(
  "chat_messages",
  {
    id: id(),
    roomId: text("room_id").notNull(),
    /** Null for a contact-form visitor's message (their thread names them; docs/decisions/096). */
    senderId: uuid("sender_id").references(() => users.id, { onDelete: "cascade" }),
    receiverId: uuid("receiver_id").references(() => users.id, { onDelete: "set null" }),
    customerId: uuid("customer_id").references(() => users.id, { onDelete: "cascade" }),
    serviceId: uuid("service_id").references(() => services.id, { onDelete: "set null" }),
    message: text("message").notNull(),
    messageType: text("message_type").notNull().default("text"),
    createdAt: createdAt(),
  },
  (t) => [
    index("chat_messages_room_created_idx").on(t.roomId, t.createdAt, t.id),
    // The inbox's search by message text (prefix words, docs/decisions/095).
    index("chat_messages_search_idx").using("gin", sql`to_tsvector('simple', ${t.message})`),
    check("chat_messages_length_check", sql`char_length(${t.message}) between 1 and 2000`),
  ],
);

/** How far each reader has read each room, and when they were last e-mailed about it. */
export const chatReadPositions = pgTable(
  "chat_read_positions",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    roomId: text("room_id").notNull(),
    lastReadAt: timestamp("last_read_at", { withTimezone: true }).notNull().defaultNow(),
    notifiedAt: timestamp("notified_at", { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.roomId] })],
);

/** Each Stripe event id once, written in the same transaction as its effect. */
export const stripeEvents = pgTable("stripe_events", {
  id: text("id").primaryKey(),
  type: text("type").notNull(),
  processedAt: timestamp("processed_at", { withTimezone: true }).notNull().defaultNow(),
});

export const contactMessages = pgTable("contact_messages", {
  id: id(),
  firstName: text("first_name"),
  lastName: text("last_name"),
  email: text("email").notNull(),
  message: text("message"),
  createdAt: createdAt(),
});

export const usersRelations = relations(users, ({ many }) => ({
  purchases: many(purchases),
  reports: many(reports),
  sessions: many(sessions),
}));

export const ordersRelations = relations(orders, ({ one, many }) => ({
  user: one(users, { fields: [orders.userId], references: [users.id] }),
  purchases: many(purchases),
}));

export const purchasesRelations = relations(purchases, ({ one, many }) => ({
  order: one(orders, { fields: [purchases.orderId], references: [orders.id] }),
  service: one(services, { fields: [purchases.serviceId], references: [services.id] }),
  user: one(users, { fields: [purchases.userId], references: [users.id] }),
  reports: many(reports),
}));

export const reportsRelations = relations(reports, ({ one }) => ({
  user: one(users, { fields: [reports.userId], references: [users.id] }),
  service: one(services, { fields: [reports.serviceId], references: [services.id] }),
  purchase: one(purchases, { fields: [reports.purchaseId], references: [purchases.id] }),
}));

export const chatMessagesRelations = relations(chatMessages, ({ one }) => ({
  sender: one(users, { fields: [chatMessages.senderId], references: [users.id] }),
}));

export const servicesRelations = relations(services, ({ many }) => ({
  purchases: many(purchases),
}));
