import type { Receipt, Subscription } from "./billing";
import type { BriefAnswers, BriefQuestion } from "./brief";
import type { Letter } from "./grader";
import type { ThreadNote } from "./inbox";
import type { Purchase, Report } from "./purchase";

/**
 * Everything staff see about one customer (models/customer-profile.server.ts): the inbox's
 * customer pane and the customer page show this one shape, the loaders' own (decision 309).
 */
export interface CustomerProfile {
  customer: { id: string; name: string; email: string; createdAt: string; disabled: boolean };
  plans: Subscription[];
  purchases: Purchase[];
  /** Paid orders and plan renewals, newest first. */
  receipts: Receipt[];
  /** What the receipts add up to after refunds. */
  totalPaid: { amountCents: number; currency: string };
  reports: Report[];
  /** Grader results left with the customer's e-mail address, newest first. */
  grades: { id: string; overall: Letter; score: number; createdAt: string }[];
  notes: ThreadNote[];
  /** The briefs of the customer's paid purchases and plans, newest first: staff read the answers beside the conversation. */
  briefs: CustomerBrief[];
}

/** One brief as staff read it: what it is for, where it opens, the questions as asked and the answers, and the files they name. */
export interface CustomerBrief {
  id: string;
  title: string;
  href: string;
  questions: BriefQuestion[];
  answers: BriefAnswers;
  submittedAt: string | null;
  files: Record<string, { id: string; fileName: string; mimeType: string; fileSize: number }>;
}
