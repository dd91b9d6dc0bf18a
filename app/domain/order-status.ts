import type { OrderStatus } from "./status";

/**
 * An order's status as the API and the dashboard name it, from the stored one:
 * a checkout that expired or whose delayed payment failed is "expired".
 */
export const API_ORDER_STATUSES = ["pending", "paid", "expired", "refunded", "partially_refunded"] as const;
export type ApiOrderStatus = (typeof API_ORDER_STATUSES)[number];

export function toApiOrderStatus(status: OrderStatus): ApiOrderStatus {
  return status === "cancelled" || status === "failed" ? "expired" : status;
}

/** The stored statuses a filter on the API status matches. */
export function storedStatusesFor(status: ApiOrderStatus): OrderStatus[] {
  return status === "expired" ? ["cancelled", "failed"] : [status];
}

export const ORDER_STATUS_LABELS: Record<ApiOrderStatus, string> = {
  pending: "Pending",
  paid: "Paid",
  expired: "Expired",
  refunded: "Refunded",
  partially_refunded: "Partially refunded",
};

/** Stored statuses whose money came in (and may be refunded). */
export const REFUNDABLE_STATUSES = ["paid", "partially_refunded"] as const satisfies readonly OrderStatus[];

/** The status an order takes once `refunded` of its `total` cents has been refunded. */
export function statusAfterRefunds(totalCents: number, refundedCents: number): OrderStatus {
  if (refundedCents <= 0) return "paid";
  return refundedCents >= totalCents ? "refunded" : "partially_refunded";
}
