import type { z } from "zod";

import type { purchaseJson, reportJson } from "./schemas/api";

export { WORK_STATUSES, isWorkStatus, type WorkStatus } from "./status";

/** The Purchase and Report shapes of the JSON API (and of the dashboard's loaders), from their schemas: dates are ISO strings. */
export type PurchaseJson = z.infer<typeof purchaseJson>;
export type ReportJson = z.infer<typeof reportJson>;

export const dateFormat = new Intl.DateTimeFormat("en-US", { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" });
export const formatDate = (iso: string) => dateFormat.format(new Date(iso));
