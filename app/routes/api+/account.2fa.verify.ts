import { z } from "zod";

import { codeSchema } from "~/domain/schemas/auth";
import { confirmTotpSetup, RECOVERY_CODE_COUNT } from "~/models/two-factor.server";
import { methodNotAllowed } from "~/utils/http.server";
import { apiRoute } from "~/web/api.server";
import { withCodeLimits } from "~/web/sign-in.server";

/** POST /api/account/2fa/verify {code}: the first code of the pending secret turns two-factor on; ten recovery codes, shown this once. */
export const action = apiRoute(
  {
    method: "POST",
    auth: "any",
    duringSetup: true,
    body: codeSchema,
    errors: [409, 429],
    response: z.object({ status: z.literal("success"), data: z.object({ recoveryCodes: z.array(z.string()).length(RECOVERY_CODE_COUNT) }) }),
    summary: "Turn two-factor on with a first code from the authenticator app; answers ten single-use recovery codes (shown once).",
  },
  async ({ user, body, clientIp }) => ({ status: "success", data: await withCodeLimits(clientIp, user.id, () => confirmTotpSetup(user.id, body.code)) }),
);

export const loader = methodNotAllowed;
