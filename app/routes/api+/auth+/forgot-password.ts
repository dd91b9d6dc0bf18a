import { z } from "zod";

import { statusMessage } from "~/domain/schemas/api";
import { emailField } from "~/domain/schemas/auth";
import { methodNotAllowed } from "~/utils/http.server";
import { apiRoute } from "~/web/api.server";
import { startPasswordReset } from "~/web/auth-limits.server";
import { checkHoneypot } from "~/web/honeypot.server";

const FORGOT_PASSWORD_MESSAGE = "If an account exists for this email, we have sent a link to reset the password.";

/** POST /api/auth/forgot-password {email}: always the same success, whether or not the account exists. */
const body = z.object({ email: emailField }).loose();

export const action = apiRoute(
  {
    method: "POST",
    auth: "none",
    body,
    errors: [429],
    response: statusMessage,
    summary: "Send a password-reset link (same answer whether or not the account exists).",
  },
  async ({ body, clientIp }) => {
    checkHoneypot(body, { api: true });
    await startPasswordReset(clientIp, body.email);
    return { status: "success", message: FORGOT_PASSWORD_MESSAGE };
  },
);

export const loader = methodNotAllowed;
