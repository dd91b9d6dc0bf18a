import { line, z } from "~/domain/zod";

import { refundAmountField, refundReasonField } from "./ops";

/** Staff's plans list and plan page (decision 175), and the confirmation steps of money actions (decision 176). */

export const STAFF_PLAN_STATUSES = ["active", "ending", "past_due", "canceled"] as const;
export type StaffPlanStatus = (typeof STAFF_PLAN_STATUSES)[number];

export const STAFF_PLAN_STATUS_LABELS: Record<StaffPlanStatus, string> = {
  active: "Active",
  ending: "Cancels at period end",
  past_due: "Past due",
  canceled: "Cancelled",
};

export const subscriptionListQuerySchema = z.object({
  status: z.enum(STAFF_PLAN_STATUSES, { error: `Status must be one of ${STAFF_PLAN_STATUSES.join(", ")}.` }).optional(),
  search: line(z.string().trim().max(200, "The search is too long."), "The search").optional(),
  page: z.coerce
    .number({ error: "Page must be a whole number." })
    .int("Page must be a whole number.")
    .min(1, "Page must be at least 1.")
    .max(100_000)
    .default(1),
});

/**
 * A change staff make to a plan. Without `confirm=yes` the page answers with the confirmation step
 * (what changes, for whom, from when); only the confirmed post changes anything.
 */
export const staffPlanChangeSchema = z.object({
  intent: z.enum(["cancel_at_period_end", "cancel_now", "resume"], { error: "Please choose what to change." }),
  confirm: z.literal("yes").optional(),
});

/**
 * The order page's refund: an amount (empty: what is left), a reason, then a confirmation step
 * that shows exactly what will be refunded; `confirm=yes` refunds.
 */
export const refundFormSchema = z.object({
  amount: refundAmountField,
  reason: refundReasonField,
  refundKey: z.uuid({ error: "Please reload the page and try again." }),
  confirm: z.literal("yes").optional(),
});
