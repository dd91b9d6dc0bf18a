import { dayField } from "~/domain/dates";
import { API_ORDER_STATUSES } from "~/domain/order-status";
import { ROLES } from "~/domain/status";
import { line, text, z } from "~/domain/zod";

import { emailField, nameField } from "./order";

/*
 * Running the agency (decisions 090–094): the orders list's filters, a refund, an invitation, and the
 * JSON shapes those routes answer with (the OpenAPI document is generated from them).
 */

const isoDate = z.string().meta({ format: "date-time" });
const id = z.string().meta({ format: "uuid" });

/** GET /api/orders and the orders page: every filter optional. Dates are whole UTC days, both inclusive. */
export const orderFilterSchema = z.object({
  status: z.enum(API_ORDER_STATUSES, { error: `Status must be one of ${API_ORDER_STATUSES.join(", ")}.` }).optional(),
  search: line(z.string().trim().max(200, "The search is too long."), "The search").optional(),
  from: dayField("From").optional(),
  to: dayField("To").optional(),
});

export const orderListQuerySchema = orderFilterSchema.extend({
  page: z.coerce
    .number({ error: "Page must be a whole number." })
    .int("Page must be a whole number.")
    .min(1, "Page must be at least 1.")
    .max(100_000, "Page must be at most 100000.")
    .default(1),
  limit: z.coerce
    .number({ error: "Limit must be a whole number." })
    .int("Limit must be a whole number.")
    .min(1, "Limit must be at least 1.")
    .max(100, "Limit must be at most 100.")
    .default(25),
});

/** A filter's days as instants: `to` covers its whole day. */
export function filterDates(filter: { from?: string; to?: string }) {
  const from = filter.from ? new Date(`${filter.from}T00:00:00Z`) : undefined;
  const to = filter.to ? new Date(new Date(`${filter.to}T00:00:00Z`).getTime() + 86_400_000) : undefined;
  return { from, to };
}

export const REFUND_MESSAGES = {
  amount: "Enter the amount to refund in dollars, e.g. 49.50.",
  positive: "The refund must be more than $0.",
  cents: "The refund can have at most two decimals.",
};

/** Dollars with at most two decimals; a form sends text, JSON a number. Empty: the rest of the order. */
export const refundAmountField = z.preprocess(
  (value) => (typeof value === "string" ? (value.trim() === "" ? undefined : Number(value.trim().replace(/^\$/, ""))) : value),
  z
    .number({ error: REFUND_MESSAGES.amount })
    .finite(REFUND_MESSAGES.amount)
    .positive(REFUND_MESSAGES.positive)
    .max(1_000_000, REFUND_MESSAGES.amount)
    .refine((n) => Math.abs(Math.round(n * 100) - n * 100) < 1e-6, REFUND_MESSAGES.cents)
    .optional(),
);

export const REFUND_REASON_MESSAGES = {
  required: "Please give a reason for the refund.",
  tooLong: "The reason can be at most 500 characters.",
};

export const refundReasonField = text(
  z.string({ error: REFUND_REASON_MESSAGES.required }).trim().min(1, REFUND_REASON_MESSAGES.required).max(500, REFUND_REASON_MESSAGES.tooLong),
  "The reason",
);

export const refundBodySchema = z.object({
  amount: refundAmountField.meta({ description: "Dollars; omitted: what is left of the order." }),
  reason: refundReasonField.optional().meta({ description: "Why the order is refunded (at most 500 characters); shown in the order's history." }),
});

export const inviteBodySchema = z.object({ email: emailField, name: nameField });

export const revenueQuerySchema = z.object({
  months: z.coerce
    .number({ error: "Months must be a whole number." })
    .int("Months must be a whole number.")
    .min(1, "Months must be at least 1.")
    .max(36, "Months must be at most 36.")
    .default(12),
});

export const orderJson = z.object({
  _id: id,
  id,
  status: z.enum(API_ORDER_STATUSES),
  email: z.string(),
  name: z.string(),
  customer: z.object({ _id: id, name: z.string(), email: z.string() }).nullable(),
  client: z.object({ _id: id, name: z.string() }).nullable().meta({ description: "The buyer's client (company)." }),
  amount: z.number().meta({ description: "In dollars." }),
  refunded: z.number().meta({ description: "In dollars, refunded so far." }),
  currency: z.string(),
  createdAt: isoDate,
  paidAt: isoDate.nullable(),
  lines: z.array(z.object({ service: z.object({ _id: z.string(), name: z.string() }), price: z.number(), quantity: z.number().int() })),
  kind: z.enum(["services", "plan"]),
  renewal: z.boolean().meta({ description: "A plan's later month (or a plan switch's proration), not its sign-up." }),
  subscriptionId: id.nullable().meta({ description: "The plan this payment belongs to; null for services." }),
});

export const staffJson = z.object({
  _id: id,
  id,
  name: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  createdAt: isoDate,
  disabledAt: isoDate.nullable(),
  state: z.enum(["active", "invited", "disabled"]),
});

export const revenueMonthJson = z.object({
  month: z.string().meta({ description: "UTC month, e.g. 2026-11." }),
  revenue: z.number().meta({ description: "Dollars, net of refunds, renewals included." }),
  orders: z.number().int(),
  renewals: z.number().int(),
});
