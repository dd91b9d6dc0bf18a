import { signedInResponse } from "~/domain/schemas/api";
import { apiTwoFactorSchema, TWO_FACTOR_CODE_MESSAGES } from "~/domain/schemas/auth";
import { createSession } from "~/models/sessions.server";
import { toApiUser } from "~/models/users.server";
import { HttpError, methodNotAllowed } from "~/utils/http.server";
import { apiRoute } from "~/web/api.server";
import { LOGIN_SUCCESS_MESSAGE } from "~/web/auth-form.server";
import { noteApiSignIn } from "~/web/sign-in-device.server";
import { answerChallenge } from "~/web/sign-in.server";

/**
 * POST /api/auth/2fa {challenge, code} or {challenge, credential}: the second step of signing in to
 * an account with a second factor. The challenge (from POST /api/auth/login) lasts 5 minutes and
 * takes 5 answers: the authenticator's current code or an unused recovery code, or the answer of
 * one of the account's passkeys to the options of POST /api/auth/passkey/options {challenge}.
 * Answers the login body.
 */
export const action = apiRoute(
  {
    method: "POST",
    auth: "none",
    body: apiTwoFactorSchema.loose(),
    errors: [401, 429],
    response: signedInResponse,
    summary: "Sign in, second step: the challenge from POST /api/auth/login and an authenticator or recovery code, or a passkey's answer.",
  },
  async ({ request, body, clientIp }) => {
    const answer = body.credential ? { credential: body.credential } : body.code ? { code: body.code } : null;
    if (!answer) throw new HttpError(400, TWO_FACTOR_CODE_MESSAGES.codeRequired, "INVALID_INPUT");
    const user = await answerChallenge(clientIp, body.challenge, "bearer", answer);
    const { token } = await createSession(user.id, "bearer");
    noteApiSignIn(request, user.id, clientIp);
    return { status: "success", message: LOGIN_SUCCESS_MESSAGE, data: { token, user: toApiUser(user) } };
  },
);

export const loader = methodNotAllowed;
