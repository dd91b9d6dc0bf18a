import { z } from "./zod";

/*
 * "Your own data" (issue 25.5): the export of everything kept about an account, and deleting a
 * customer account. The forms' and the API's schemas and what they say.
 */

export const OWN_DATA_MESSAGES = {
  passwordRequired: "Password is required",
  confirmRequired: "Please tick the box to confirm that you want to delete your account.",
  activePlan: "You still have an active plan. Cancel it from your plan's page first; once it has ended you can delete your account.",
  deleted: "Your account was deleted. Your orders stay on our books without your name or e-mail.",
} as const;

/** DELETE /api/account: the password proves it is the owner asking. */
export const accountDeleteSchema = z.object({
  password: z.string({ error: OWN_DATA_MESSAGES.passwordRequired }).min(1, OWN_DATA_MESSAGES.passwordRequired).max(1024),
});

/** The delete page's form adds a tick box: the confirmation, with or without JavaScript. */
export const accountDeleteFormSchema = accountDeleteSchema.extend({
  confirm: z.literal("yes", { error: OWN_DATA_MESSAGES.confirmRequired }),
});

/** The name and e-mail a deleted account keeps: no trace of the person, still unique. */
export const DELETED_NAME = "Deleted customer";
export const deletedEmail = (userId: string) => `deleted-${userId}@deleted.invalid`;

/** The export's file name, dated. */
export const exportFileName = (now: Date) => `brandlift-data-${now.toISOString().slice(0, 10)}.zip`;
