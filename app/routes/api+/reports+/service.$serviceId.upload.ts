import { z } from "zod";

import { reportJson, successData } from "~/domain/schemas/api";
import { toReportJson, uploadReport } from "~/models/reports.server";
import { methodNotAllowed } from "~/utils/http.server";
import { apiRoute } from "~/web/api.server";

const params = z.object({ serviceId: z.string() });

/** POST /api/reports/service/:serviceId/upload (staff), multipart report, title, description?, userId. */
const upload = z.object({
  report: z.unknown().meta({ description: "The file (PDF, image, office document or archive).", contentMediaType: "application/octet-stream" }),
  title: z.string(),
  description: z.string().optional(),
  userId: z.string().meta({ description: "The customer the report is for." }),
});

export const action = apiRoute(
  {
    method: "POST",
    auth: "team",
    params,
    rawBody: { contentType: "multipart/form-data", schema: upload },
    status: 201,
    response: successData(reportJson),
    summary: "Upload a report for a customer's service.",
  },
  async ({ user, params, request }) => {
    const report = await uploadReport(user, params.serviceId, request);
    return { success: true, data: toReportJson(report) };
  },
);

export const loader = methodNotAllowed;
