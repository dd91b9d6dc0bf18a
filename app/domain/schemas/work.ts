import { dayField } from "~/domain/dates";
import { z } from "~/domain/zod";

/** The "My work" page's filter and its forms (decision 155). */

export const WORK_FILTERS = ["all", "overdue", "week"] as const;
export type WorkFilter = (typeof WORK_FILTERS)[number];

export const workFormSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("due"),
    purchaseId: z.string().uuid({ error: "Purchase not found." }),
    // A date input sends YYYY-MM-DD, or nothing (an empty field) to clear the date.
    dueOn: dayField("The due date").optional(),
  }),
  z.object({ intent: z.literal("complete"), purchaseId: z.string().uuid({ error: "Purchase not found." }) }),
  z.object({ intent: z.literal("unassign"), purchaseId: z.string().uuid({ error: "Purchase not found." }) }),
]);

/** A due date from a date field: the end of that day (UTC), so it is overdue only once the day is over. */
export const endOfDay = (date: string) => new Date(`${date}T23:59:59.999Z`);
