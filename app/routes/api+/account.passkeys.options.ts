import { z } from "zod";

import { registrationOptions } from "~/models/passkeys.server";
import { methodNotAllowed } from "~/utils/http.server";
import { apiRoute } from "~/web/api.server";

/** POST /api/account/passkeys/options: WebAuthn creation options for a new passkey (the challenge is good for 5 minutes, once). */
export const action = apiRoute(
  {
    method: "POST",
    auth: "any",
    duringSetup: true,
    response: z.object({ status: z.literal("success"), data: z.object({ options: z.record(z.string(), z.unknown()) }) }),
    summary: "Start adding a passkey: options for navigator.credentials.create() (PublicKeyCredentialCreationOptionsJSON).",
  },
  async ({ user }) => ({ status: "success", data: { options: await registrationOptions(user) } }),
);

export const loader = methodNotAllowed;
