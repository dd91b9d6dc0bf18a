import { z } from "zod";

import { removePasskey } from "~/models/passkeys.server";
import { methodNotAllowed } from "~/utils/http.server";
import { apiRoute, uuidParam } from "~/web/api.server";

/** DELETE /api/account/passkeys/:id: removes one of your passkeys (another account's: 404). */
export const action = apiRoute(
  {
    method: "DELETE",
    auth: "any",
    duringSetup: true,
    params: z.object({ id: uuidParam("Passkey not found.") }),
    response: z.object({ status: z.literal("success") }),
    summary: "Remove one of your passkeys.",
  },
  async ({ user, params }) => {
    await removePasskey(user.id, params.id);
    return { status: "success" };
  },
);

export const loader = methodNotAllowed;
