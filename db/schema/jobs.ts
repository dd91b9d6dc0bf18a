import { sql } from "drizzle-orm";
import { check, index, integer, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

import type { EmailCategory } from "../../app/domain/notifications";

/*
 * Background work. The jobs themselves live in pg-boss's own schema (`pgboss`, created and
 * migrated by pg-boss: docs/decisions/270); here are what the app adds to it: every e-mail as a
 * row, stored before it is sent (decision 271), and when each recurring job is next due.
 */

export const EMAIL_STATES = ["queued", "sent", "retrying", "failed"] as const;
export type EmailState = (typeof EMAIL_STATES)[number];

/** An address, or a name and address (nodemailer quotes the name). */
type Mailbox = string | { name: string; address: string };

/** What an e-mail says: rendered to branded HTML and to text when it is sent (app/utils/email.server.ts). */
export interface EmailMessage {
  to: string | string[];
  /** Where a reply goes when it should reach a person rather than MAIL_FROM (a visitor, the team). */
  replyTo?: Mailbox | Mailbox[];
  subject: string;
  /** Plain paragraphs and an optional call to action. */
  heading: string;
  paragraphs: string[];
  action?: { label: string; url: string };
  footer?: string;
  /**
   * "security" (sign-in from a new device, password, e-mail, two-factor and passkey changes): always
   * sent, no unsubscribe link. A notification kind: its recipient may turn it off (docs/decisions/291).
   */
  category?: EmailCategory;
}

/**
 * One row per e-mail. `user_id` is the account its first recipient had when it was written (the
 * customer's page lists them); `order_id` the order it is about, if any. The state follows the
 * sending job: queued, sent, retrying (an attempt failed, another is due) or failed (given up).
 */
export const emails = pgTable(
  "emails",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    recipient: text("recipient").notNull(),
    subject: text("subject").notNull(),
    message: jsonb("message").$type<EmailMessage>().notNull(),
    orderId: uuid("order_id"),
    userId: uuid("user_id"),
    state: text("state").$type<EmailState>().notNull().default("queued"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("emails_order_idx").on(t.orderId, t.createdAt),
    index("emails_user_idx").on(t.userId, t.createdAt),
    index("emails_state_idx").on(t.state),
    check("emails_state_check", sql`${t.state} in ('queued', 'sent', 'retrying', 'failed')`),
  ],
);

/** A recurring job's next due time: the node that moves it forward enqueues the run (once across nodes). */
export const jobSchedules = pgTable("job_schedules", {
  kind: text("kind").primaryKey(),
  nextRunAt: timestamp("next_run_at", { withTimezone: true }).notNull(),
});
