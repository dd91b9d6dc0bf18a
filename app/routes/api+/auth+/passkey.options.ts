import { z } from "zod";

import { authenticationOptions } from "~/models/passkeys.server";
import { methodNotAllowed } from "~/utils/http.server";
import { limits } from "~/utils/rate-limit.server";
import { apiRoute } from "~/web/api.server";
import { secondStepPasskeyOptions } from "~/web/sign-in.server";

/**
 * POST /api/auth/passkey/options: WebAuthn request options. Without a body: for signing in with
 * any passkey of this site (no e-mail first; the passkey must verify the person). With
 * {challenge} (a second step from a sign-in): for answering it with one of that account's passkeys.
 */
export const action = apiRoute(
  {
    method: "POST",
    auth: "none",
    body: z.object({ challenge: z.string().min(1).max(200).optional() }).loose(),
    rateLimit: { limiter: limits.passkeyOptions, key: ({ clientIp }) => `ip:${clientIp}` },
    response: z.object({ status: z.literal("success"), data: z.object({ options: z.record(z.string(), z.unknown()) }) }),
    summary:
      "Start signing in with a passkey: options for navigator.credentials.get() (PublicKeyCredentialRequestOptionsJSON); with {challenge}, for the second step of that sign-in.",
  },
  async ({ body }) => {
    const options = body.challenge ? await secondStepPasskeyOptions(body.challenge) : await authenticationOptions();
    // Copied into a plain object: the library's options type has no index signature, the declared record does.
    return { status: "success", data: { options: { ...options } } };
  },
);

export const loader = methodNotAllowed;
