import { z } from "zod";
import { emailField } from "~/components/auth/schemas";
import { requestPasswordReset } from "~/models/password-tokens.server";
import { normalizeEmail } from "~/models/users.server";
import { apiRoute } from "~/utils/api.server";
import { checkHoneypot } from "~/utils/honeypot.server";
import { methodNotAllowed } from "~/utils/http.server";
import { consume, limits } from "~/utils/rate-limit.server";

const FORGOT_PASSWORD_MESSAGE = "If an account exists for this email, we have sent a link to reset the password.";

/** POST /api/auth/forgot-password {email}: always the same success, whether or not the account exists. */
export const action = apiRoute({ auth: "none", body: z.object({ email: emailField }).loose() }, async ({ body }) => {
  checkHoneypot(body, { api: true });
  await consume(limits.forgotPassword, `email:${normalizeEmail(body.email)}`);
  await requestPasswordReset(body.email);
  return { status: "success", message: FORGOT_PASSWORD_MESSAGE };
});

export const loader = methodNotAllowed;
