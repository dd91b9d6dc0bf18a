import { z } from "zod";

import { signedInResponse } from "~/domain/schemas/api";
import { passkeyCredentialSchema } from "~/domain/schemas/auth";
import { verifyPasskeySignIn } from "~/models/passkeys.server";
import { createSession } from "~/models/sessions.server";
import { toApiUser } from "~/models/users.server";
import { methodNotAllowed } from "~/utils/http.server";
import { limits } from "~/utils/rate-limit.server";
import { apiRoute } from "~/web/api.server";
import { LOGIN_SUCCESS_MESSAGE } from "~/web/auth-form.server";
import { noteApiSignIn } from "~/web/sign-in-device.server";

/**
 * POST /api/auth/passkey {credential}: signs in with a passkey (the answer of
 * navigator.credentials.get() to POST /api/auth/passkey/options). A passkey is both factors: no
 * code is asked. Answers the login body.
 */
export const action = apiRoute(
  {
    method: "POST",
    auth: "none",
    body: z.object({ credential: passkeyCredentialSchema }),
    rateLimit: { limiter: limits.passkeySignIn, key: ({ clientIp }) => `ip:${clientIp}` },
    errors: [401],
    response: signedInResponse,
    summary: "Sign in with a passkey (both factors): the answer of navigator.credentials.get(); answers the login body.",
  },
  async ({ request, body, clientIp }) => {
    const user = await verifyPasskeySignIn(body.credential);
    const { token } = await createSession(user.id, "bearer");
    noteApiSignIn(request, user.id, clientIp);
    return { status: "success", message: LOGIN_SUCCESS_MESSAGE, data: { token, user: toApiUser(user) } };
  },
);

export const loader = methodNotAllowed;
