import { listReportsForUser, toReportJson } from "~/models/reports.server";
import { apiRoute } from "~/utils/api.server";
import { methodNotAllowed } from "~/utils/http.server";

/** GET /api/reports/my-reports: every report of the signed-in customer, newest first. */
export const loader = apiRoute({ auth: "user" }, async ({ user }) => {
  const reports = await listReportsForUser(user.id);
  return { success: true, data: { reports: reports.map(toReportJson) } };
});

export const action = methodNotAllowed;
