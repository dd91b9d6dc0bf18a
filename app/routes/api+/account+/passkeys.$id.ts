import { z } from "zod";

import { passkeyJson } from "~/domain/schemas/account";
import { passkeyRenameSchema } from "~/domain/schemas/auth";
import { removePasskey, renamePasskey, toPasskeyJson } from "~/models/passkeys.server";
import { methodNotAllowed } from "~/utils/http.server";
import { apiMethods, apiRoute, uuidParam } from "~/web/api.server";

/** PATCH /api/account/passkeys/:id {name}: renames one of your passkeys (another account's: 404). */
const rename = apiRoute(
  {
    method: "PATCH",
    auth: "any",
    duringSetup: true,
    params: z.object({ id: uuidParam("Passkey not found.") }),
    body: passkeyRenameSchema,
    response: z.object({ status: z.literal("success"), data: z.object({ passkey: passkeyJson }) }),
    summary: "Rename one of your passkeys.",
  },
  async ({ user, params, body }) => ({ status: "success", data: { passkey: toPasskeyJson(await renamePasskey(user.id, params.id, body.name)) } }),
);

/** DELETE /api/account/passkeys/:id: removes one of your passkeys (another account's: 404). */
const remove = apiRoute(
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

export const action = apiMethods(rename, remove);

export const loader = methodNotAllowed;
