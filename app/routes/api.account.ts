import { ACCOUNT_MESSAGES, accountPatchSchema } from "~/domain/billing";
import { accountPatchResponse, accountResponse } from "~/domain/schemas/billing-api";
import { getAccount, requestEmailChange, toAccountJson, updateName } from "~/models/account.server";
import { apiMethods, apiRoute } from "~/web/api.server";

/** GET /api/account: the signed-in account. */
export const loader = apiRoute({ method: "GET", auth: "any", response: accountResponse, summary: "The signed-in account." }, async ({ user }) => ({
  status: "success",
  data: { user: toAccountJson(await getAccount(user.id)) },
}));

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

export const action = apiMethods(patch);
