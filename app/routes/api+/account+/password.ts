import { passwordChangeSchema } from "~/domain/billing";
import { statusMessage } from "~/domain/schemas/api";
import { changePassword } from "~/models/account.server";
import { methodNotAllowed } from "~/utils/http.server";
import { apiRoute } from "~/web/api.server";

/**
 * POST /api/account/password {currentPassword, newPassword}: rate-limited like sign-in; every other
 * session and token of the account ends (the one making the call stays signed in).
 */
export const action = apiRoute(
  {
    method: "POST",
    auth: "any",
    body: passwordChangeSchema,
    errors: [429],
    response: statusMessage,
    summary: "Change your password; every other session and token ends.",
  },
  async ({ identity, body, clientIp }) => {
    await changePassword(identity!, body, clientIp);
    return { status: "success", message: "Your password was changed. Every other device has been signed out." };
  },
);

export const loader = methodNotAllowed;
