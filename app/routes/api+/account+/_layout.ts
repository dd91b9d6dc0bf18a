import { z } from "zod";

import { ACCOUNT_MESSAGES, accountPatchSchema } from "~/domain/billing";
import { accountDeleteSchema } from "~/domain/own-data";
import { accountPatchResponse, accountResponse } from "~/domain/schemas/billing-api";
import { deleteCustomerAccount } from "~/models/account-deletion.server";
import { getAccount, requestEmailChange, toAccountJson, updateName } from "~/models/account.server";
import { apiMethods, apiRoute } from "~/web/api.server";

/** GET /api/account: the signed-in account. */
export const loader = apiRoute(
  { method: "GET", auth: "any", duringSetup: true, response: accountResponse, summary: "The signed-in account." },
  async ({ user }) => ({
    status: "success",
    data: { user: toAccountJson(await getAccount(user.id)) },
  }),
);

/**
 * PATCH /api/account {name?, email?, currentPassword?}: a new name applies at once; a new e-mail
 * needs the current password and is only requested (limited per account and client address): a
 * confirmation link goes to that address if no other account uses it. The answer is the same
 * either way (decision 126).
 */
const patch = apiRoute(
  {
    method: "PATCH",
    auth: "any",
    body: accountPatchSchema,
    // The e-mail change's own limits (per account and client address) are spent inside the handler.
    errors: [429],
    response: accountPatchResponse,
    summary: "Change your name, or ask to change your e-mail (needs currentPassword; confirmed by a link).",
  },
  async ({ user, body, clientIp }) => {
    const pending =
      body.email !== undefined ? await requestEmailChange(user.id, { email: body.email, currentPassword: body.currentPassword! }, clientIp) : null;
    const account = body.name !== undefined ? await updateName(user.id, body.name) : await getAccount(user.id);
    return {
      status: "success",
      ...(pending ? { message: ACCOUNT_MESSAGES.emailRequested(pending.pendingEmail) } : {}),
      data: { user: toAccountJson(account), ...(pending ? { pendingEmail: pending.pendingEmail } : {}) },
    };
  },
);

/**
 * DELETE /api/account {password}: a customer deletes their account (decision 240): name and e-mail
 * anonymised, every session, token and socket ended, files removed, orders kept for the books.
 * A wrong password is a 400 (limited like sign-in); a live plan a 409, unless `endPlans` ends it first.
 */
const remove = apiRoute(
  {
    method: "DELETE",
    auth: "user",
    body: accountDeleteSchema,
    errors: [409, 429, 502],
    response: z.object({ status: z.literal("success") }),
    summary: "Delete your customer account (needs password); a live plan is ended first with endPlans, else refused with 409.",
  },
  async ({ user, body, clientIp }) => {
    await deleteCustomerAccount(user.id, body.password, clientIp, { endPlans: body.endPlans });
    return { status: "success" };
  },
);

export const action = apiMethods(patch, remove);
