import { accountPatchSchema } from "~/domain/billing";
import { accountPatchResponse, accountResponse } from "~/domain/schemas/billing-api";
import { getAccount, requestEmailChange, toAccountJson, updateName } from "~/models/account.server";
import { apiMethods, apiRoute } from "~/web/api.server";

/** GET /api/account: the signed-in account. */
export const loader = apiRoute({ method: "GET", auth: "any", response: accountResponse, summary: "The signed-in account." }, async ({ user }) => ({
  status: "success",
  data: { user: toAccountJson(await getAccount(user.id)) },
}));

/**
 * PATCH /api/account {name?, email?}: a new name applies at once; a new e-mail is only requested:
 * a confirmation link goes to that address (409 when another account uses it, and nothing changes).
 */
const patch = apiRoute(
  { method: "PATCH", auth: "any", body: accountPatchSchema, errors: [409], response: accountPatchResponse, summary: "Change your name, or ask to change your e-mail (confirmed by a link)." },
  async ({ user, body }) => {
    let account = await getAccount(user.id);
    if (body.email !== undefined) await requestEmailChange(account, body.email);
    if (body.name !== undefined) account = await updateName(user.id, body.name);
    return {
      status: "success",
      ...(body.email !== undefined ? { message: `We sent a confirmation link to ${body.email.trim().toLowerCase()}. Your e-mail changes when you open it.` } : {}),
      data: { user: toAccountJson(account), ...(body.email !== undefined ? { pendingEmail: body.email.trim().toLowerCase() } : {}) },
    };
  },
);

export const action = apiMethods(patch);
