/** What the dashboard's loaders hand to its components (JSON, so dates are strings). */
export type { PurchaseJson } from "~/models/purchases.server";
export type { ReportJson } from "~/models/reports.server";

export const dateFormat = new Intl.DateTimeFormat("en-US", { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" });
export const formatDate = (iso: string) => dateFormat.format(new Date(iso));

/** The service detail shows sizes in MB (spec); the Reports grid uses formatFileSize. */
export function formatMegabytes(bytes: number) {
  const mb = bytes / (1024 * 1024);
  return bytes > 0 && mb < 0.01 ? "< 0.01 MB" : `${mb.toFixed(2)} MB`;
}

/** Paid work: staff move a purchase between these two; other states belong to payments. */
export const WORK_STATUSES = ["in_progress", "completed"] as const;
export type WorkStatus = (typeof WORK_STATUSES)[number];
export const isWorkStatus = (status: string): status is WorkStatus => (WORK_STATUSES as readonly string[]).includes(status);
