import { z } from "zod";

import { authenticationOptions } from "~/models/passkeys.server";
import { methodNotAllowed } from "~/utils/http.server";
import { limits } from "~/utils/rate-limit.server";
import { apiRoute } from "~/web/api.server";

/** POST /api/auth/passkey/options: WebAuthn request options for signing in with any passkey of this site (no e-mail first). */
export const action = apiRoute(
  {
    method: "POST",
    auth: "none",
    rateLimit: { limiter: limits.passkeyOptions, key: ({ clientIp }) => `ip:${clientIp}` },
    response: z.object({ status: z.literal("success"), data: z.object({ options: z.record(z.string(), z.unknown()) }) }),
    summary: "Start signing in with a passkey: options for navigator.credentials.get() (PublicKeyCredentialRequestOptionsJSON).",
  },
  async () => ({ status: "success", data: { options: await authenticationOptions() } }),
);

export const loader = methodNotAllowed;
