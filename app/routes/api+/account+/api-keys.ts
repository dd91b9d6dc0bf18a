import { z } from "zod";

import { apiKeyCreateSchema } from "~/domain/api-keys";
import { apiKeyJson } from "~/domain/schemas/account";
import { statusData } from "~/domain/schemas/api";
import { createApiKey, listApiKeys } from "~/models/api-keys.server";
import { apiRoute } from "~/web/api.server";

/*
 * Your API keys (decision 284). Only a signed-in session manages keys: a key can neither list,
 * make nor revoke keys (403).
 */

/** GET /api/account/api-keys: your keys, newest first (never the keys themselves). */
export const loader = apiRoute(
  {
    method: "GET",
    auth: "any",
    scope: null,
    response: statusData(z.object({ apiKeys: z.array(apiKeyJson) })),
    summary: "Your API keys, newest first (the keys themselves are shown only when made).",
  },
  async ({ user }) => ({ status: "success", data: { apiKeys: await listApiKeys(user.id) } }),
);

/** POST /api/account/api-keys {name, scopes}: a new key, shown this once; a scope beyond your rights is a 403. */
export const action = apiRoute(
  {
    method: "POST",
    auth: "any",
    scope: null,
    status: 201,
    body: apiKeyCreateSchema,
    errors: [409],
    response: statusData(
      z.object({ key: z.string().meta({ description: "The key: shown this once, send it as Authorization: Bearer <key>." }), apiKey: apiKeyJson }),
    ),
    summary: "Make an API key with scopes within your own rights; the key is in this answer only.",
  },
  async ({ user, body }) => ({ status: "success", data: await createApiKey(user, body) }),
);
