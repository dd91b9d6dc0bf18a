import { sql } from "drizzle-orm";
import { boolean, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

import type { DeliveryStatus, WebhookEvent } from "../../app/domain/webhooks";
import { users } from "./core";

/*
 * Webhooks (docs/decisions/286): the addresses staff send events to, each event as it happened and
 * one delivery per event and webhook, sent by a job. An event row and its deliveries are written in
 * the transaction of the change that causes them, so no event is lost by a restart. The inbound
 * e-mails taken as chat replies are kept by Message-ID so a provider's retry posts nothing twice.
 */

const id = () =>
  uuid("id")
    .primaryKey()
    .default(sql`gen_random_uuid()`);
const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();

export const webhooks = pgTable(
  "webhooks",
  {
    id: id(),
    url: text("url").notNull(),
    events: text("events").array().$type<WebhookEvent[]>().notNull(),
    /** Signs every delivery; shown once when the webhook is made. */
    secret: text("secret").notNull(),
    active: boolean("active").notNull().default(true),
    consecutiveFailures: integer("consecutive_failures").notNull().default(0),
    disabledReason: text("disabled_reason"),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("webhooks_created_idx").on(t.createdAt)],
);

export const webhookEvents = pgTable(
  "webhook_events",
  {
    id: id(),
    type: text("type").$type<WebhookEvent>().notNull(),
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    /** Set for an event that must happen once (a post's time coming): a second emit finds it. */
    onceKey: text("once_key"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("webhook_events_once_key_idx").on(t.onceKey), index("webhook_events_created_idx").on(t.createdAt)],
);

export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: id(),
    webhookId: uuid("webhook_id")
      .notNull()
      .references(() => webhooks.id, { onDelete: "cascade" }),
    eventId: uuid("event_id")
      .notNull()
      .references(() => webhookEvents.id, { onDelete: "cascade" }),
    status: text("status").$type<DeliveryStatus>().notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    /** The JSON body, fixed when the delivery is made: every try sends the same bytes. */
    requestBody: text("request_body").notNull(),
    lastStatusCode: integer("last_status_code"),
    responseExcerpt: text("response_excerpt"),
    lastError: text("last_error"),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }),
    deliveredAt: timestamp("delivered_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("webhook_deliveries_webhook_idx").on(t.webhookId, t.createdAt),
    index("webhook_deliveries_event_idx").on(t.eventId),
    check("webhook_deliveries_status_check", sql`${t.status} in ('pending', 'delivered', 'failed')`),
  ],
);

export const inboundEmails = pgTable(
  "inbound_emails",
  {
    messageId: text("message_id").primaryKey(),
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    roomId: text("room_id").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("inbound_emails_created_idx").on(t.createdAt)],
);
