import { signedInResponse } from "~/domain/schemas/api";
import { apiSecondFactorSchema } from "~/domain/schemas/auth";
import { createSession } from "~/models/sessions.server";
import { toApiUser } from "~/models/users.server";
import { methodNotAllowed } from "~/utils/http.server";
import { apiRoute } from "~/web/api.server";
import { LOGIN_SUCCESS_MESSAGE } from "~/web/auth-form.server";
import { noteApiSignIn } from "~/web/sign-in-device.server";
import { answerChallenge } from "~/web/sign-in.server";

/**
 * POST /api/auth/2fa {challenge, code}: the second step of signing in to an account with
 * two-factor on. The challenge (from POST /api/auth/login) lasts 5 minutes and takes 5 codes; the
 * code is the authenticator's current one or an unused recovery code. Answers the login body.
 */
export const action = apiRoute(
  {
    method: "POST",
    auth: "none",
    body: apiSecondFactorSchema.loose(),
    errors: [401, 429],
    response: signedInResponse,
    summary: "Sign in, second step: the challenge from POST /api/auth/login and an authenticator or recovery code.",
  },
  async ({ request, body, clientIp }) => {
    const user = await answerChallenge(clientIp, body.challenge, "bearer", body.code);
    const { token } = await createSession(user.id, "bearer");
    noteApiSignIn(request, user.id, clientIp);
    return { status: "success", message: LOGIN_SUCCESS_MESSAGE, data: { token, user: toApiUser(user) } };
  },
);

export const loader = methodNotAllowed;
