import { z } from "zod";

import { isoDate, statusData } from "~/domain/schemas/api";
import { clientsQuerySchema, memberJson } from "~/domain/schemas/clients";
import { listClients } from "~/models/clients.server";
import { methodNotAllowed } from "~/utils/http.server";
import { apiRoute } from "~/web/api.server";

/** GET /api/clients[?search=&page=&limit=] (staff): clients with their members, newest first. */
export const loader = apiRoute(
  {
    method: "GET",
    auth: "team",
    query: clientsQuerySchema,
    response: statusData(
      z.object({
        clients: z.object({ _id: z.string(), name: z.string(), members: memberJson.array(), createdAt: isoDate }).array(),
        total: z.number().int(),
      }),
    ),
    summary: "Clients (companies) with their members, newest first; search by the client's or a member's name or e-mail.",
  },
  async ({ query }) => ({ status: "success", data: await listClients(query) }),
);

export const action = methodNotAllowed;
