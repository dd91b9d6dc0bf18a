import { z } from "zod";

import { apiUserJson } from "~/domain/schemas/api";
import { apiLoginSchema } from "~/domain/schemas/auth";
import { createSession } from "~/models/sessions.server";
import { toApiUser } from "~/models/users.server";
import { HttpError, methodNotAllowed } from "~/utils/http.server";
import { apiRoute } from "~/web/api.server";
import { authenticateCredentials, InvalidCredentialsError, LOGIN_SUCCESS_MESSAGE } from "~/web/auth-form.server";
import { withSignInLimits } from "~/web/auth-limits.server";
import { checkHoneypot } from "~/web/honeypot.server";

const response = z.object({ status: z.literal("success"), message: z.string(), data: z.object({ token: z.string(), user: apiUserJson }) });

/** POST /api/auth/login {email, password}: a bearer token for the JSON client (Authorization: Bearer <token>). */
export const action = apiRoute(
  { method: "POST", auth: "none", body: apiLoginSchema.loose(), errors: [401, 429], response, summary: "Sign in: a bearer token for the JSON client." },
  async ({ body, clientIp }) => {
    checkHoneypot(body, { api: true });
    const user = await withSignInLimits(clientIp, body.email, () => authenticateCredentials(body.email, body.password)).catch((error: unknown) => {
      if (error instanceof InvalidCredentialsError) throw new HttpError(401, error.message, "INVALID_CREDENTIALS");
      throw error;
    });
    const { token } = await createSession(user.id, "bearer");
    return { status: "success", message: LOGIN_SUCCESS_MESSAGE, data: { token, user: toApiUser(user) } };
  },
);

export const loader = methodNotAllowed;
