import { z } from "zod";

import { reportJson, successData } from "~/domain/schemas/api";
import { replaceReport } from "~/models/report-versions.server";
import { toReportJson } from "~/models/reports.server";
import { methodNotAllowed } from "~/utils/http.server";
import { apiRoute } from "~/web/api.server";

const params = z.object({ id: z.string() });

/** POST /api/reports/:id/versions (staff), multipart file, note?: the report serves the new file; the old one stays for staff. */
const upload = z.object({
  file: z
    .unknown()
    .meta({ description: "The new file (PDF, image, office document or archive; at most 10 MiB).", contentMediaType: "application/octet-stream" }),
  note: z.string().optional().meta({ description: "Why it was replaced (at most 1,000 characters); shown to staff beside the version." }),
});

export const action = apiRoute(
  {
    method: "POST",
    auth: "team",
    params,
    rawBody: { contentType: "multipart/form-data", schema: upload },
    status: 201,
    errors: [404, 413, 415],
    response: successData(z.object({ report: reportJson })),
    summary: "Replace a report with a new version; earlier versions stay downloadable by staff.",
  },
  async ({ user, params, request }) => {
    const report = await replaceReport(user, params.id, request);
    return { success: true, data: { report: toReportJson(report) } };
  },
);

export const loader = methodNotAllowed;
