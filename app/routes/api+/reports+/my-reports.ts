import { z } from "zod";

import { ownerKey } from "~/domain/permissions";
import { reportJson, successData } from "~/domain/schemas/api";
import { listReportsForUser, toReportJson } from "~/models/reports.server";
import { methodNotAllowed } from "~/utils/http.server";
import { apiRoute } from "~/web/api.server";

/** GET /api/reports/my-reports: every report of the signed-in customer, newest first. */
const response = successData(z.object({ reports: reportJson.array() }));

export const loader = apiRoute(
  { method: "GET", auth: "user", allow: "reports:list-own", response, summary: "Every report of the signed-in customer, newest first." },
  async ({ user }) => {
    const reports = await listReportsForUser(ownerKey(user));
    return { success: true, data: { reports: reports.map(toReportJson) } };
  },
);

export const action = methodNotAllowed;
