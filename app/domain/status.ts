/** The states of each aggregate, shared by the schema's CHECK constraints, models and screens. */

export const ROLES = ["user", "team"] as const;
export type Role = (typeof ROLES)[number];

export const PURCHASE_STATUSES = ["pending", "in_progress", "completed", "cancelled", "refunded"] as const;
export type PurchaseStatus = (typeof PURCHASE_STATUSES)[number];

export const ORDER_STATUSES = ["pending", "paid", "cancelled", "refunded", "failed", "partially_refunded"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** Paid work: staff move a purchase between these two; other states belong to payments. */
export const WORK_STATUSES = ["in_progress", "completed"] as const;
export type WorkStatus = (typeof WORK_STATUSES)[number];
export const isWorkStatus = (status: string): status is WorkStatus => (WORK_STATUSES as readonly string[]).includes(status);
