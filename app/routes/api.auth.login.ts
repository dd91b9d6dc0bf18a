import type { ActionFunctionArgs } from "@remix-run/node";
import { apiLoginSchema } from "~/components/auth/schemas";
import { createSession } from "~/models/sessions.server";
import { normalizeEmail, toApiUser } from "~/models/users.server";
import { apiRoute } from "~/utils/api.server";
import { authenticateCredentials, InvalidCredentialsError, LOGIN_SUCCESS_MESSAGE } from "~/utils/auth-form.server";
import { checkHoneypot } from "~/utils/honeypot.server";
import { HttpError, jsonError } from "~/utils/http.server";
import { clientIp, consume, limits } from "~/utils/rate-limit.server";

/** POST /api/auth/login {email, password}: a bearer token for the JSON client (contracts §3). */
export function action(args: ActionFunctionArgs) {
  const ip = clientIp(args.request, args.context);
  return apiRoute({ auth: "none", body: apiLoginSchema.loose() }, async ({ body }) => {
    checkHoneypot(body, { api: true });
    await consume(limits.signIn, `ip:${ip}`, `email:${normalizeEmail(body.email)}`);
    const user = await authenticateCredentials(body.email, body.password).catch((error: unknown) => {
      if (error instanceof InvalidCredentialsError) throw new HttpError(401, error.message, "INVALID_CREDENTIALS");
      throw error;
    });
    const { token } = await createSession(user.id, "bearer");
    return { status: "success", message: LOGIN_SUCCESS_MESSAGE, data: { token, user: toApiUser(user) } };
  })(args);
}

export const loader = () => jsonError(405, "Method not allowed.");
