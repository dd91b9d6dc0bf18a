import { z } from "zod";

import { codeSchema } from "~/domain/schemas/auth";
import { disableTwoFactor, startTwoFactorSetup } from "~/models/two-factor.server";
import { methodNotAllowed } from "~/utils/http.server";
import { apiMethods, apiRoute } from "~/web/api.server";
import { withCodeLimits } from "~/web/sign-in.server";

/**
 * POST /api/account/2fa: a new authenticator secret and its otpauth:// URL, not active until a
 * first code verifies it (POST /api/account/2fa/verify). DELETE /api/account/2fa {code}: turns
 * two-factor off, with a current code or a recovery code.
 */
const start = apiRoute(
  {
    method: "POST",
    auth: "any",
    duringSetup: true,
    errors: [409],
    response: z.object({ status: z.literal("success"), data: z.object({ secret: z.string(), otpauthUrl: z.string() }) }),
    summary: "Start two-factor set-up: a secret for an authenticator app (not active until verified).",
  },
  async ({ user }) => ({ status: "success", data: await startTwoFactorSetup(user) }),
);

const remove = apiRoute(
  {
    method: "DELETE",
    auth: "any",
    duringSetup: true,
    body: codeSchema,
    errors: [409, 429],
    response: z.object({ status: z.literal("success") }),
    summary: "Turn two-factor off: needs a current authenticator code or an unused recovery code.",
  },
  async ({ user, body, clientIp }) => {
    await withCodeLimits(clientIp, user.id, () => disableTwoFactor(user.id, body.code));
    return { status: "success" };
  },
);

export const action = apiMethods(start, remove);
export const loader = methodNotAllowed;
