import type { ReceiptJson, SubscriptionJson } from "./billing";
import type { Letter } from "./grader";
import type { PurchaseJson, ReportJson } from "./purchase";
import type { NoteJson } from "./schemas/workspace";

/**
 * Everything staff see about one customer (models/customer-profile.server.ts): the inbox's
 * customer pane and the customer page show this one shape.
 */
export interface CustomerProfileJson {
  customer: { _id: string; name: string; email: string; createdAt: string; disabled: boolean };
  plans: SubscriptionJson[];
  purchases: PurchaseJson[];
  /** Paid orders and plan renewals, newest first. */
  receipts: ReceiptJson[];
  /** What the receipts add up to after refunds, in dollars. */
  totalPaid: { amount: number; currency: string };
  reports: ReportJson[];
  /** Grader results left with the customer's e-mail address, newest first. */
  grades: { _id: string; overall: Letter; score: number; createdAt: string }[];
  notes: NoteJson[];
}
