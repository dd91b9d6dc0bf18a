import type { z } from "zod";

import type { purchaseJson, reportJson } from "./schemas/api";

export { WORK_STATUSES, isWorkStatus, type WorkStatus } from "./status";

/** The Purchase and Report shapes of the JSON API, from their schemas: dates are ISO strings. */
export type PurchaseJson = z.infer<typeof purchaseJson>;
/** A purchase as screens take it: the API's shape with its money in integer cents. */
export type Purchase = Omit<PurchaseJson, "amount"> & { amountCents: number };
export type ReportJson = z.infer<typeof reportJson>;

export const dateFormat = new Intl.DateTimeFormat("en-US", { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" });
export const formatDate = (iso: string) => dateFormat.format(new Date(iso));
