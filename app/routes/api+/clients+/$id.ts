import { z } from "zod";

import { isoDate, statusData } from "~/domain/schemas/api";
import { memberJson } from "~/domain/schemas/clients";
import { getClientForStaff, toStaffClientJson } from "~/models/clients.server";
import { methodNotAllowed } from "~/utils/http.server";
import { apiRoute, uuidParam } from "~/web/api.server";

/** GET /api/clients/:id (staff): one client with its members, by the client's id or any member's. */
export const loader = apiRoute(
  {
    method: "GET",
    auth: "team",
    params: z.object({ id: uuidParam("Client not found.") }),
    errors: [404],
    response: statusData(z.object({ client: z.object({ _id: z.string(), name: z.string(), members: memberJson.array(), createdAt: isoDate }) })),
    summary: "One client with its members (by the client's id or any member's).",
  },
  async ({ params }) => ({ status: "success", data: toStaffClientJson(await getClientForStaff(params.id)) }),
);

export const action = methodNotAllowed;
