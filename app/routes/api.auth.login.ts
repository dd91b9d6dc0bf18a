import { apiLoginSchema } from "~/components/auth/schemas";
import { createSession } from "~/models/sessions.server";
import { normalizeEmail, toApiUser } from "~/models/users.server";
import { apiRoute } from "~/utils/api.server";
import { authenticateCredentials, InvalidCredentialsError, LOGIN_SUCCESS_MESSAGE } from "~/utils/auth-form.server";
import { checkHoneypot } from "~/utils/honeypot.server";
import { HttpError, methodNotAllowed } from "~/utils/http.server";
import { consume, limits } from "~/utils/rate-limit.server";

/** POST /api/auth/login {email, password}: a bearer token for the JSON client (contracts §3). */
export const action = apiRoute({ auth: "none", body: apiLoginSchema.loose() }, async ({ body, clientIp }) => {
  checkHoneypot(body, { api: true });
  await consume(limits.signIn, `ip:${clientIp}`, `email:${normalizeEmail(body.email)}`);
  const user = await authenticateCredentials(body.email, body.password).catch((error: unknown) => {
    if (error instanceof InvalidCredentialsError) throw new HttpError(401, error.message, "INVALID_CREDENTIALS");
    throw error;
  });
  const { token } = await createSession(user.id, "bearer");
  return { status: "success", message: LOGIN_SUCCESS_MESSAGE, data: { token, user: toApiUser(user) } };
});

export const loader = methodNotAllowed;
