import { z } from "zod";

import { successData } from "~/domain/schemas/api";
import { createDownloadUrl, getReportFor } from "~/models/reports.server";
import { env } from "~/utils/env.server";
import { methodNotAllowed } from "~/utils/http.server";
import { apiRoute } from "~/web/api.server";

const params = z.object({ id: z.string() });

/** GET /api/reports/:id/download: a signed link valid for five minutes, for the owner or staff. */
const response = successData(z.object({ downloadUrl: z.string(), fileName: z.string() }));

export const loader = apiRoute(
  { method: "GET", auth: "any", params, response, summary: "A signed download link, valid for five minutes." },
  async ({ user, params }) => {
    const report = await getReportFor(user, params.id);
    // A deleted report (only staff still reach it) has no signed link: its address needs the caller's own credentials.
    const downloadUrl = report.deletedAt ? `${env.appUrl}/files/reports/${report.id}` : createDownloadUrl(report.id);
    return { success: true, data: { downloadUrl, fileName: report.fileName } };
  },
);

export const action = methodNotAllowed;
