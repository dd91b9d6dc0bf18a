import { apiResetPasswordSchema } from "~/components/auth/schemas";
import { resetPasswordWithToken } from "~/models/password-tokens.server";
import { apiRoute } from "~/utils/api.server";
import { HttpError, methodNotAllowed } from "~/utils/http.server";

/** POST /api/auth/reset-password {password, token}: a bad, used or expired token answers 400. */
export const action = apiRoute({ auth: "none", body: apiResetPasswordSchema }, async ({ body }) => {
  const outcome = await resetPasswordWithToken(body.token, body.password);
  if (!outcome.ok) throw new HttpError(400, outcome.message, `TOKEN_${outcome.failure.toUpperCase()}`);
  return { status: "success", message: "Password reset successfully. You can now log in with your new password." };
});

export const loader = methodNotAllowed;
