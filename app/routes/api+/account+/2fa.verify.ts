import { z } from "zod";

import { codeSchema } from "~/domain/schemas/auth";
import { RECOVERY_CODE_COUNT } from "~/models/two-factor.server";
import { methodNotAllowed } from "~/utils/http.server";
import { apiRoute } from "~/web/api.server";
import { turnOnTwoFactor } from "~/web/sign-in.server";

/**
 * POST /api/account/2fa/verify {code}: the first code of the pending secret turns two-factor on; ten
 * recovery codes, shown this once. Every other session and token of the account ends (this one stays).
 */
export const action = apiRoute(
  {
    method: "POST",
    auth: "any",
    duringSetup: true,
    body: codeSchema,
    errors: [409, 429],
    response: z.object({ status: z.literal("success"), data: z.object({ recoveryCodes: z.array(z.string()).length(RECOVERY_CODE_COUNT) }) }),
    summary:
      "Turn two-factor on with a first code from the authenticator app; answers ten single-use recovery codes (shown once). Every other session and token ends.",
  },
  async ({ identity, body, clientIp }) => ({ status: "success", data: await turnOnTwoFactor(identity!, body.code, clientIp) }),
);

export const loader = methodNotAllowed;
