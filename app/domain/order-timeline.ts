import { formatMoney } from "./format";
import { ORDER_STATUS_LABELS, statusAfterRefunds, toApiOrderStatus } from "./order-status";
import type { OrderStatus } from "./status";

/*
 * An order's history for its staff page: created, paid, each refund (by whom, why),
 * each e-mail sent, each status change (a refund's, an expiry, a service marked completed), oldest
 * first, each with who did it. Built from the records the order already has; isomorphic and pure.
 */

export type TimelineKind = "created" | "paid" | "refund" | "email" | "status" | "work";

export interface TimelineEntry {
  at: string;
  kind: TimelineKind;
  title: string;
  detail: string | null;
  /** Who did it: the buyer, a staff member, Stripe, or BrandLift itself. */
  actor: string;
}

export interface TimelineInput {
  order: {
    name: string;
    email: string;
    status: OrderStatus;
    totalCents: number;
    currency: string;
    createdAt: string;
    paidAt: string | null;
    updatedAt: string;
  };
  refunds: {
    amountCents: number;
    status: string;
    source: string;
    createdBy: string | null;
    reason: string | null;
    createdAt: string;
    failureMessage: string | null;
  }[];
  emails: { recipient: string; subject: string; sentAt: string }[];
  /** Paid work; `completedBy` is the staff member the audit log names (null before the log). */
  work: { service: string; completedAt: string | null; completedBy?: string | null }[];
}

export function orderTimeline({ order, refunds, emails, work }: TimelineInput): TimelineEntry[] {
  const buyer = `${order.name} (${order.email})`;
  const money = (cents: number) => formatMoney(cents / 100, order.currency);
  const entries: TimelineEntry[] = [
    { at: order.createdAt, kind: "created", title: "Order placed", detail: `Checkout for ${money(order.totalCents)} started`, actor: buyer },
  ];
  if (order.paidAt) entries.push({ at: order.paidAt, kind: "paid", title: `Paid ${money(order.totalCents)}`, detail: "Status: Paid", actor: buyer });
  let refunded = 0;
  for (const refund of refunds) {
    const actor = refund.source === "stripe" ? "Stripe dashboard" : (refund.createdBy ?? "A former staff member");
    const failed = refund.status === "failed";
    entries.push({
      at: refund.createdAt,
      kind: "refund",
      title: `${failed ? "Refund failed" : refund.status === "pending" ? "Refund under way" : "Refunded"}: ${money(refund.amountCents)}`,
      detail: [refund.reason ? `Reason: ${refund.reason}` : null, refund.failureMessage].filter(Boolean).join(" · ") || null,
      actor,
    });
    if (refund.status !== "succeeded") continue;
    refunded += refund.amountCents;
    const status = statusAfterRefunds(order.totalCents, Math.min(refunded, order.totalCents));
    entries.push({ at: refund.createdAt, kind: "status", title: `Status: ${ORDER_STATUS_LABELS[toApiOrderStatus(status)]}`, detail: null, actor });
  }
  if (order.status === "cancelled" || order.status === "failed") {
    const why = order.status === "failed" ? "the delayed payment failed" : "the checkout expired or was abandoned";
    entries.push({ at: order.updatedAt, kind: "status", title: "Status: Expired", detail: `Not paid: ${why}`, actor: "Stripe" });
  }
  for (const item of work) {
    if (item.completedAt)
      entries.push({ at: item.completedAt, kind: "work", title: `${item.service} completed`, detail: "Status: Completed", actor: item.completedBy ?? "Staff" });
  }
  for (const email of emails)
    entries.push({ at: email.sentAt, kind: "email", title: `E-mail sent: ${email.subject}`, detail: `To ${email.recipient}`, actor: "BrandLift" });
  // Oldest first; at the same instant in the order of the list above (a stable sort).
  return entries
    .map((entry, index) => ({ entry, index }))
    .sort((a, b) => a.entry.at.localeCompare(b.entry.at) || a.index - b.index)
    .map(({ entry }) => entry);
}
