import type { z } from "zod";

import type { purchaseJson, reportJson } from "./schemas/api";
import type { PurchaseStatus } from "./status";

export { WORK_STATUSES, isWorkStatus, type WorkStatus } from "./status";

/** The Purchase and Report shapes of the JSON API, from their schemas: dates are ISO strings. */
export type PurchaseJson = z.infer<typeof purchaseJson>;
/**
 * A purchase as the loaders hand it to screens (decision 309): ids as `id`, money in integer cents.
 * The API's edge writes it as PurchaseJson (`_id` beside `id`, dollars).
 */
export interface Purchase {
  id: string;
  amountCents: number;
  currency: string;
  quantity: number;
  status: PurchaseStatus;
  createdAt: string;
  stripeSessionId: string | null;
  service: { id: string; name: string; description: string | null };
  /** The team member doing the work. */
  assignee: { id: string; name: string } | null;
  dueAt: string | null;
  brief: { required: boolean; submittedAt: string | null };
}
export type ReportJson = z.infer<typeof reportJson>;
/** A report as the loaders hand it to screens (decision 309): ids as `id`; the API sends it as ReportJson. */
export interface Report {
  id: string;
  title: string;
  description: string | null;
  fileName: string;
  fileSize: number;
  mimeType: string;
  createdAt: string;
  service: { id: string; name: string };
  userId: string;
}

export const dateFormat = new Intl.DateTimeFormat("en-US", { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" });
export const formatDate = (iso: string) => dateFormat.format(new Date(iso));
