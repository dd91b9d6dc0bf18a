import { and, eq, isNull } from "drizzle-orm";

import { formatMoney } from "~/domain/format";
import type { OrderLine } from "~/domain/order";
import { db, schema, type Tx } from "~/utils/db.server";
import { sendEmail } from "~/utils/email.server";
import { env } from "~/utils/env.server";
import { logger } from "~/utils/logger.server";

import { storeSetPasswordEmail } from "./password-tokens.server";
import { signedReceiptUrl } from "./receipts.server";

type OrderRow = typeof schema.orders.$inferSelect;

type Customer = typeof schema.users.$inferSelect;

const money = (cents: number) => formatMoney(cents / 100);

export function describeLines(lines: OrderLine[]) {
  return lines.map((line) => `${line.name}: ${money(line.amountCents * line.quantity)}${line.recurring ? " a month" : ""}`);
}

/** TEAM_INBOX, else every active team account. */
export async function teamRecipients(): Promise<string[]> {
  if (env.teamInbox?.length) return env.teamInbox;
  const team = await db
    .select({ email: schema.users.email })
    .from(schema.users)
    .where(and(eq(schema.users.role, "team"), isNull(schema.users.disabledAt)));
  return team.map((member) => member.email);
}

/**
 * A fulfilment's e-mails, stored in its transaction (they exist exactly when the order is paid, and
 * survive a node dying right after): the buyer's confirmation (lines, total, what happens in the
 * next 24 hours), a set-password link when the account has no password yet, and a note to the team
 * (`team`: read before the transaction). Answers their sending jobs, for `sendStoredEmails` once
 * the transaction has committed.
 */
export async function storeOrderEmails(tx: Tx, order: OrderRow, customer: Customer, lines: OrderLine[], team: string[]): Promise<string[]> {
  const total = `${money(order.totalCents)}${order.kind === "subscription" ? " a month" : ""}`;
  const about = { tx, orderId: order.id };
  const jobIds: string[] = [];
  const confirmation = await sendEmail(
    {
      to: order.email,
      category: "billing",
      subject: "Your BrandLift order is confirmed",
      heading: `Thank you for your order, ${order.name}!`,
      paragraphs: [
        "Your payment went through. Here is what you ordered:",
        ...describeLines(lines).map((line) => `• ${line}`),
        `Total: ${total}`,
        "What happens next: a strategist from our team will contact you within 24 hours to book a short kickoff call and collect what we need to start.",
        "Your invoice arrives in a separate e-mail from our payment provider. You can follow progress, download reports and message us from your dashboard.",
        `Your receipt: ${signedReceiptUrl("order", order.id)}`,
      ],
      action: { label: "Open your dashboard", url: `${env.appUrl}/login` },
    },
    { ...about, userId: customer.id },
  );
  jobIds.push(confirmation.jobId);
  await recordOrderEmail(order.id, "confirmation", order.email, "Your BrandLift order is confirmed", tx);
  if (!customer.passwordHash) {
    jobIds.push(await storeSetPasswordEmail(tx, customer, order.id));
    await recordOrderEmail(order.id, "set-password", customer.email, "Set your BrandLift password", tx);
  }
  if (team.length === 0) return jobIds;
  const notice = await sendEmail(
    {
      to: team,
      category: "order",
      subject: `New order: ${order.name} (${total})`,
      heading: "A new order has been paid",
      paragraphs: [
        `${order.name} <${order.email}> paid ${total}.`,
        ...describeLines(lines).map((line) => `• ${line}`),
        "We promised to get in touch within 24 hours.",
      ],
      action: { label: "Open the order", url: `${env.appUrl}/dashboard/orders/${order.id}` },
    },
    about,
  );
  jobIds.push(notice.jobId);
  await recordOrderEmail(order.id, "team-notice", team, `New order: ${order.name} (${total})`, tx);
  return jobIds;
}

/** Records an e-mail sent about an order, for its page. Never fails the caller. */
export async function recordOrderEmail(orderId: string, kind: string, recipient: string | string[], subject: string, tx?: Tx) {
  const row = { orderId, kind, recipient: [recipient].flat().join(", "), subject };
  // In a transaction its failure is the transaction's (a caught error would leave it aborted).
  if (tx) return void (await tx.insert(schema.orderEmails).values(row));
  await db
    .insert(schema.orderEmails)
    .values(row)
    .catch((error: unknown) => logger.warn({ err: error, orderId, kind }, "could not record an order e-mail"));
}
