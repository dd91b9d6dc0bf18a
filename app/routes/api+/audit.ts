import { z } from "zod";

import { statusData } from "~/domain/schemas/api";
import { auditEntryJson, auditQuery } from "~/domain/schemas/audit";
import { listAudit } from "~/models/audit.server";
import { methodNotAllowed } from "~/utils/http.server";
import { apiRoute } from "~/web/api.server";

/** GET /api/audit[?actorId=&action=&page=&limit=] (staff): the audit log, newest first, with the total. */
export const loader = apiRoute(
  {
    method: "GET",
    auth: "team",
    query: auditQuery,
    response: statusData(z.object({ entries: auditEntryJson.array(), total: z.number().int() })),
    summary: "The audit log of staff actions (money, access, what customers see), newest first.",
  },
  async ({ query }) => ({ status: "success", data: await listAudit(query) }),
);

export const action = methodNotAllowed;
