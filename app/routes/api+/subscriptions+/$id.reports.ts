import { z } from "zod";

import { planReportResponse } from "~/domain/schemas/billing-api";
import { uploadPlanReport } from "~/models/plan-reports.server";
import { methodNotAllowed } from "~/utils/http.server";
import { apiRoute } from "~/web/api.server";

const params = z.object({ id: z.string() });
const upload = z.object({
  report: z.unknown().meta({ description: "The file (PDF, DOC, DOCX, JPEG or PNG).", contentMediaType: "application/octet-stream" }),
  title: z.string(),
  description: z.string().optional(),
});

/** POST /api/subscriptions/:id/reports (staff): a report for the plan's current month. */
export const action = apiRoute(
  {
    method: "POST",
    auth: "team",
    params,
    rawBody: { contentType: "multipart/form-data", schema: upload },
    status: 201,
    errors: [409],
    response: planReportResponse,
    summary: "Upload a report for a customer's plan, for the current month.",
  },
  async ({ user, params, request }) => ({ success: true, data: await uploadPlanReport(user, params.id, request) }),
);

export const loader = methodNotAllowed;
