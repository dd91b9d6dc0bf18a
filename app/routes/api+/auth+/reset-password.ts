import { statusMessage } from "~/domain/schemas/api";
import { apiResetPasswordSchema } from "~/domain/schemas/auth";
import { resetPasswordWithToken } from "~/models/password-tokens.server";
import { HttpError, methodNotAllowed } from "~/utils/http.server";
import { apiRoute } from "~/web/api.server";

/** POST /api/auth/reset-password {password, token}: a bad, used or expired token answers 400. */
export const action = apiRoute(
  { method: "POST", auth: "none", body: apiResetPasswordSchema, response: statusMessage, summary: "Set a new password with the e-mailed token." },
  async ({ body }) => {
    const outcome = await resetPasswordWithToken(body.token, body.password);
    if (!outcome.ok) throw new HttpError(400, outcome.message, `TOKEN_${outcome.failure.toUpperCase()}`);
    return { status: "success", message: "Password reset successfully. You can now log in with your new password." };
  },
);

export const loader = methodNotAllowed;
