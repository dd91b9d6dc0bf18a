import type { PurchaseStatus } from "./status";

export { WORK_STATUSES, isWorkStatus, type WorkStatus } from "./status";

/** The Purchase shape of the JSON API (and of the dashboard's loaders): dates are ISO strings. */
export interface PurchaseJson {
  _id: string;
  id: string;
  amount: number;
  currency: string;
  quantity: number;
  status: PurchaseStatus;
  createdAt: string;
  stripeSessionId: string | null;
  service: { _id: string; name: string; description: string | null };
  /** Who on the team does the work, and when it is due. */
  assignee: { _id: string; name: string } | null;
  dueAt: string | null;
}

/** The Report shape of the JSON API. */
export interface ReportJson {
  _id: string;
  id: string;
  title: string;
  description: string | null;
  fileName: string;
  fileSize: number;
  mimeType: string;
  createdAt: string;
  service: { _id: string; name: string };
  userId: string;
}

export const dateFormat = new Intl.DateTimeFormat("en-US", { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" });
export const formatDate = (iso: string) => dateFormat.format(new Date(iso));

/** The service detail shows sizes in MB (spec); the Reports grid uses formatFileSize. */
export function formatMegabytes(bytes: number) {
  const mb = bytes / (1024 * 1024);
  return bytes > 0 && mb < 0.01 ? "< 0.01 MB" : `${mb.toFixed(2)} MB`;
}
