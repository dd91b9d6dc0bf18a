import { z } from "zod";

import { CLIENT_ROLES } from "~/domain/clients";
import { statusData } from "~/domain/schemas/api";
import { clientNameSchema, clientRefJson, memberJson } from "~/domain/schemas/clients";
import { getOwnClient, renameClient, toOwnClientJson } from "~/models/clients.server";
import { apiRoute } from "~/web/api.server";

/*
 * GET /api/client — the signed-in member's client, their role and its members (decision 283).
 * PATCH /api/client {name} — an owner renames the client.
 */

export const loader = apiRoute(
  {
    method: "GET",
    auth: "user",
    allow: "client:read",
    response: statusData(z.object({ client: clientRefJson, role: z.enum(CLIENT_ROLES), members: memberJson.array() })),
    summary: "Your client (company), your role in it and its members.",
  },
  async ({ user }) => ({ status: "success", data: toOwnClientJson(await getOwnClient(user)) }),
);

export const action = apiRoute(
  {
    method: "PATCH",
    auth: "user",
    allow: "client:manage",
    body: clientNameSchema,
    response: statusData(z.object({ client: clientRefJson })),
    summary: "Renames your client (owners).",
  },
  async ({ user, body }) => ({ status: "success", data: { client: await renameClient(user, body.name) } }),
);
