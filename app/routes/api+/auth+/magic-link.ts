import { z } from "zod";

import { statusMessage } from "~/domain/schemas/api";
import { emailField } from "~/domain/schemas/auth";
import { MAGIC_LINK_MESSAGES } from "~/models/magic-links.server";
import { methodNotAllowed } from "~/utils/http.server";
import { apiRoute } from "~/web/api.server";
import { startMagicLink } from "~/web/auth-limits.server";
import { checkHoneypot } from "~/web/honeypot.server";

/**
 * POST /api/auth/magic-link {email}: e-mails a sign-in link (once, within 15 minutes; the second
 * factor is still asked where one is set). The same answer whether or not the account exists.
 */
export const action = apiRoute(
  {
    method: "POST",
    auth: "none",
    body: z.object({ email: emailField }).loose(),
    errors: [429],
    response: statusMessage,
    summary: "E-mail a sign-in link, good once for 15 minutes (the same answer whether or not the account exists).",
  },
  async ({ body, clientIp }) => {
    checkHoneypot(body, { api: true });
    await startMagicLink(clientIp, body.email);
    return { status: "success", message: MAGIC_LINK_MESSAGES.sent };
  },
);

export const loader = methodNotAllowed;
