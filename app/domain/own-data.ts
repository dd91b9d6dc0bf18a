import { z } from "./zod";

/*
 * "Your own data" (decision 240): the export of everything kept about an account, and deleting a
 * customer account. The forms' and the API's schemas and what they say.
 */

export const OWN_DATA_MESSAGES = {
  passwordRequired: "Password is required",
  confirmRequired: "Please tick the box to confirm that you want to delete your account.",
  activePlan:
    "You still have an active plan. End it now as part of deleting your account (the unused part of this period is prorated), or set it to end at the end of its period under Manage billing on your plan's page and delete your account once it has ended.",
  deleted: "Your account was deleted. Your orders stay on our books without your name or e-mail.",
  lastOwner: "You are the last owner of your company's account: make another member an owner on the Team page before deleting yours.",
} as const;

/** DELETE /api/account: the password proves it is the owner asking; `endPlans` ends any live plan first. */
export const accountDeleteSchema = z.object({
  password: z.string({ error: OWN_DATA_MESSAGES.passwordRequired }).min(1, OWN_DATA_MESSAGES.passwordRequired).max(1024),
  endPlans: z.boolean().optional(),
});

/** The delete page's form adds tick boxes: the confirmation and, while a plan runs, ending it now. */
export const accountDeleteFormSchema = accountDeleteSchema.extend({
  confirm: z.literal("yes", { error: OWN_DATA_MESSAGES.confirmRequired }),
  endPlans: z.literal("yes").optional(),
});

/** The name and e-mail a deleted account keeps: no trace of the person, still unique. */
export const DELETED_NAME = "Deleted customer";
export const deletedEmail = (userId: string) => `deleted-${userId}@deleted.invalid`;
/** Every deleted account's e-mail, as a SQL LIKE pattern. */
export const DELETED_EMAIL_LIKE = "deleted-%@deleted.invalid";
/** A customer who deleted their account: the row stays for the books (decision 240), the person is gone. */
export const isDeletedAccount = (user: { id: string; email: string }) => user.email === deletedEmail(user.id);

/** The export's file name, dated. */
export const exportFileName = (now: Date) => `brandlift-data-${now.toISOString().slice(0, 10)}.zip`;
