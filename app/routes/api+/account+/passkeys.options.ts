import { z } from "zod";

import { passkeyProofSchema } from "~/domain/schemas/auth";
import { registrationOptions } from "~/models/passkeys.server";
import { methodNotAllowed } from "~/utils/http.server";
import { apiRoute } from "~/web/api.server";
import { requirePasskeyProof } from "~/web/passkey-proof.server";

/**
 * POST /api/account/passkeys/options {password} or {code}: WebAuthn creation options for a new
 * passkey (the challenge is good for 5 minutes, once). The owner confirms first (decision 258): a
 * code when the authenticator app is on, else the password; an account with neither must have
 * signed in within the last ten minutes (403 RECENT_SIGN_IN_REQUIRED).
 */
export const action = apiRoute(
  {
    method: "POST",
    auth: "any",
    duringSetup: true,
    body: passkeyProofSchema.loose(),
    errors: [429],
    response: z.object({ status: z.literal("success"), data: z.object({ options: z.record(z.string(), z.unknown()) }) }),
    summary:
      "Start adding a passkey, confirmed with your password (or a code when two-factor is on): options for navigator.credentials.create() (PublicKeyCredentialCreationOptionsJSON).",
  },
  async ({ identity, user, body, clientIp }) => {
    await requirePasskeyProof(identity!, body, clientIp);
    // Copied into a plain object: the library's options type has no index signature, the declared record does.
    return { status: "success", data: { options: { ...(await registrationOptions(user)) } } };
  },
);

export const loader = methodNotAllowed;
