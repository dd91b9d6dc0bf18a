import { SCOPES } from "~/domain/api-keys";
import { isoDate } from "~/domain/schemas/api";
import { z } from "~/domain/zod";

/*
 * The JSON shapes of the account's passkey and API key routes, for validation and the OpenAPI
 * document; the models' PasskeyJson and ApiKeyJson are their types.
 */

export const passkeyJson = z.object({ _id: z.string(), name: z.string(), createdAt: isoDate, lastUsedAt: isoDate.nullable() });

export const apiKeyJson = z.object({
  _id: z.string(),
  name: z.string(),
  scopes: z.array(z.enum(SCOPES)),
  prefix: z.string().meta({ description: "The key's first 8 characters, to recognise it by." }),
  lastUsedAt: isoDate.nullable(),
  createdAt: isoDate,
});
