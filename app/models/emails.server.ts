import { and, desc, eq, or, sql } from "drizzle-orm";

import type { ListedEmail } from "~/domain/email";
import { db, schema } from "~/utils/db.server";
import { resendStoredEmail } from "~/utils/email.server";

import { recordAudit } from "./audit.server";

/*
 * The e-mails the app stored and sent (app/utils/email.server.ts) as staff see them: an order's and
 * a customer's, with their state (queued, sent, retrying, failed), and sending one again (audited).
 */

const columns = {
  id: schema.emails.id,
  recipient: schema.emails.recipient,
  subject: schema.emails.subject,
  state: schema.emails.state,
  attempts: schema.emails.attempts,
  lastError: schema.emails.lastError,
  createdAt: schema.emails.createdAt,
  sentAt: schema.emails.sentAt,
};

export const toListed = (row: { createdAt: Date; sentAt: Date | null } & Omit<ListedEmail, "createdAt" | "sentAt">): ListedEmail => ({
  ...row,
  createdAt: row.createdAt.toISOString(),
  sentAt: row.sentAt?.toISOString() ?? null,
});

/** An order's e-mails, newest first. */
export async function emailsOfOrder(orderId: string, limit = 50) {
  const rows = await db.select(columns).from(schema.emails).where(eq(schema.emails.orderId, orderId)).orderBy(desc(schema.emails.createdAt)).limit(limit);
  return rows.map(toListed);
}

/** A customer's e-mails (to their account, or about their orders), newest first, as a select not yet run (each row through toListed). */
export function selectEmailsOfCustomer(userId: string, limit = 50) {
  return db
    .select(columns)
    .from(schema.emails)
    .where(
      or(
        eq(schema.emails.userId, userId),
        sql`${schema.emails.orderId} in (select ${schema.orders.id} from ${schema.orders} where ${schema.orders.userId} = ${userId})`,
      ),
    )
    .orderBy(desc(schema.emails.createdAt))
    .limit(limit);
}

/** How many e-mails are in each state ("waiting" = queued or retrying), for metrics. */
export async function emailCounts(): Promise<Record<ListedEmail["state"], number>> {
  const rows = await db
    .select({ state: schema.emails.state, count: sql<number>`count(*)::int` })
    .from(schema.emails)
    .groupBy(schema.emails.state);
  const counts = { queued: 0, sent: 0, retrying: 0, failed: 0 };
  for (const row of rows) counts[row.state] = Number(row.count);
  return counts;
}

/** Sends a stored e-mail again (a staff action, audited). Answers false for an unknown e-mail. */
export async function resendEmail(actor: { id: string }, emailId: string) {
  const [row] = await db
    .select({ subject: schema.emails.subject, recipient: schema.emails.recipient })
    .from(schema.emails)
    .where(and(eq(schema.emails.id, emailId)));
  if (!row) return false;
  await recordAudit({ actor, action: "email.resend", target: { kind: "email", id: emailId, label: `${row.subject} → ${row.recipient}` } });
  return resendStoredEmail(emailId);
}
