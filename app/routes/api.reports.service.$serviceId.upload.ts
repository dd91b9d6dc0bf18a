import { z } from "zod";
import { toReportJson, uploadReport } from "~/models/reports.server";
import { apiRoute } from "~/utils/api.server";
import { methodNotAllowed } from "~/utils/http.server";

const params = z.object({ serviceId: z.string() });

/** POST /api/reports/service/:serviceId/upload (staff), multipart report, title, description?, userId. */
export const action = apiRoute({ auth: "team", params }, async ({ user, params, request }) => {
  if (request.method !== "POST") return methodNotAllowed();
  const report = await uploadReport(user, params.serviceId, request);
  return Response.json({ success: true, data: toReportJson(report) }, { status: 201, headers: { "Cache-Control": "no-store" } });
});

export const loader = methodNotAllowed;
