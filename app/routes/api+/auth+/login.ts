import { z } from "zod";

import { signedInResponse } from "~/domain/schemas/api";
import { apiLoginSchema } from "~/domain/schemas/auth";
import { createSession } from "~/models/sessions.server";
import { toApiUser } from "~/models/users.server";
import { HttpError, methodNotAllowed } from "~/utils/http.server";
import { apiRoute } from "~/web/api.server";
import { authenticateCredentials, InvalidCredentialsError, LOGIN_SUCCESS_MESSAGE } from "~/web/auth-form.server";
import { withSignInLimits } from "~/web/auth-limits.server";
import { checkHoneypot } from "~/web/honeypot.server";
import { noteApiSignIn } from "~/web/sign-in-device.server";
import { afterFirstFactor } from "~/web/sign-in.server";

const response = z.union([
  signedInResponse,
  z.object({
    status: z.literal("success"),
    data: z.object({ twoFactorRequired: z.literal(true), challenge: z.string(), methods: z.array(z.enum(["totp", "passkey"])) }),
  }),
]);

/**
 * POST /api/auth/login {email, password}: a bearer token for the JSON client (Authorization: Bearer <token>).
 * An account with a second factor (an authenticator app or a passkey) gets no token yet: a challenge
 * to answer at POST /api/auth/2fa, and the ways it may be answered ("totp", "passkey").
 */
export const action = apiRoute(
  {
    method: "POST",
    auth: "none",
    body: apiLoginSchema.loose(),
    errors: [401, 429],
    response,
    summary: "Sign in: a bearer token for the JSON client (or, with two-factor on, a challenge for POST /api/auth/2fa).",
  },
  async ({ request, body, clientIp }) => {
    checkHoneypot(body, { api: true });
    const user = await withSignInLimits(clientIp, body.email, () => authenticateCredentials(body.email, body.password)).catch((error: unknown) => {
      if (error instanceof InvalidCredentialsError) throw new HttpError(401, error.message, "INVALID_CREDENTIALS");
      throw error;
    });
    const step = await afterFirstFactor(user, "bearer");
    if (step.kind === "two-factor") return { status: "success", data: { twoFactorRequired: true, challenge: step.challenge, methods: step.methods } };
    const { token } = await createSession(user.id, "bearer");
    noteApiSignIn(request, user.id, clientIp);
    return { status: "success", message: LOGIN_SUCCESS_MESSAGE, data: { token, user: toApiUser(user) } };
  },
);

export const loader = methodNotAllowed;
