import { z } from "zod";

import { API_KEY_MESSAGES } from "~/domain/api-keys";
import { revokeApiKey } from "~/models/api-keys.server";
import { methodNotAllowed } from "~/utils/http.server";
import { apiRoute, uuidParam } from "~/web/api.server";

/** DELETE /api/account/api-keys/:id: revokes one of your keys (another's: 404); calls made with it then answer 401. */
export const action = apiRoute(
  {
    method: "DELETE",
    auth: "any",
    scope: null,
    params: z.object({ id: uuidParam(API_KEY_MESSAGES.notFound) }),
    response: z.object({ status: z.literal("success") }),
    summary: "Revoke one of your API keys.",
  },
  async ({ user, params }) => {
    await revokeApiKey(user, params.id);
    return { status: "success" };
  },
);

export const loader = methodNotAllowed;
