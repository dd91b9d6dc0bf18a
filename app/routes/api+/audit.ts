import { z } from "zod";

import { statusData } from "~/domain/schemas/api";
import { auditEntryJson, auditQuery } from "~/domain/schemas/audit";
import { listAudit, toAuditEntryJson } from "~/models/audit.server";
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
  async ({ query }) => {
    const { entries, total } = await listAudit(query);
    return { status: "success", data: { entries: entries.map(toAuditEntryJson), total } };
  },
);

export const action = methodNotAllowed;
