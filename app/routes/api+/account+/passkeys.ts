import { z } from "zod";

import { passkeyJson } from "~/domain/schemas/account";
import { passkeyCredentialSchema, passkeyNameField } from "~/domain/schemas/auth";
import { addPasskey, listPasskeys, toPasskeyJson } from "~/models/passkeys.server";
import { apiRoute } from "~/web/api.server";

/** GET /api/account/passkeys: the account's passkeys, newest first. */
export const loader = apiRoute(
  {
    method: "GET",
    auth: "any",
    duringSetup: true,
    response: z.object({ status: z.literal("success"), data: z.object({ passkeys: z.array(passkeyJson) }) }),
    summary: "Your passkeys, newest first.",
  },
  async ({ user }) => ({ status: "success", data: { passkeys: (await listPasskeys(user.id)).map(toPasskeyJson) } }),
);

/**
 * POST /api/account/passkeys {credential, name?}: adds a passkey made with the options of
 * POST /api/account/passkeys/options (the browser's navigator.credentials.create() answer as JSON).
 */
export const action = apiRoute(
  {
    method: "POST",
    auth: "any",
    duringSetup: true,
    status: 201,
    body: z.object({ credential: passkeyCredentialSchema, name: passkeyNameField }),
    errors: [409],
    response: z.object({ status: z.literal("success"), data: z.object({ passkey: passkeyJson }) }),
    summary: "Add a passkey: the answer of navigator.credentials.create() to the options of POST /api/account/passkeys/options.",
  },
  async ({ user, body, request }) => {
    const passkey = await addPasskey(user.id, body.credential, body.name ?? null, request.headers.get("User-Agent"));
    return { status: "success", data: { passkey: toPasskeyJson(passkey) } };
  },
);
