import { sql } from "drizzle-orm";
import { check, date, index, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

import type { EmailChoice, NotificationKind } from "../../app/domain/notifications";
import { users } from "./core";

/*
 * Notifications (docs/decisions/289): one row per person told, newest first under the bell; and each
 * person's e-mail choices per kind with the day their last digest went (decision 290).
 */

const KINDS = ["message", "post_review", "post_overdue", "post_decided", "brief_needed", "report_ready", "billing", "order"];

export const notifications = pgTable(
  "notifications",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind").$type<NotificationKind>().notNull(),
    title: text("title").notNull(),
    body: text("body").notNull().default(""),
    url: text("url").notNull(),
    readAt: timestamp("read_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** The e-mail choice when it was made: a `daily` one waits for the digest. */
    email: text("email").$type<EmailChoice>().notNull().default("off"),
    /** When a digest carried it (a `daily` one); set once, so no digest repeats it. */
    digestedAt: timestamp("digested_at", { withTimezone: true }),
  },
  (t) => [
    // The bell's list, newest first, paged by (created_at, id).
    index("notifications_user_created_idx").on(t.userId, t.createdAt.desc(), t.id.desc()),
    // The bell's count: only the unread rows are in it.
    index("notifications_user_unread_idx")
      .on(t.userId)
      .where(sql`${t.readAt} is null`),
    // The digest walks the people with daily items still to send, in id order.
    index("notifications_digest_idx")
      .on(t.userId, t.createdAt)
      .where(sql`${t.email} = 'daily' and ${t.digestedAt} is null`),
    check("notifications_kind_check", sql.raw(`"kind" in (${KINDS.map((k) => `'${k}'`).join(", ")})`)),
    check("notifications_email_check", sql`${t.email} in ('instant', 'daily', 'off')`),
  ],
);

export const notificationSettings = pgTable("notification_settings", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  /** Only the kinds the person changed; the others follow the defaults. */
  email: jsonb("email").$type<Partial<Record<NotificationKind, EmailChoice>>>().notNull().default({}),
  /** The person's own date when their last digest went (in their time zone). */
  lastDigestOn: date("last_digest_on"),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
