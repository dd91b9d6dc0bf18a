import { z } from "zod";

import { successData } from "~/domain/schemas/api";
import { createDownloadUrl, getReportFor } from "~/models/reports.server";
import { methodNotAllowed } from "~/utils/http.server";
import { apiRoute } from "~/web/api.server";

const params = z.object({ id: z.string() });

/** GET /api/reports/:id/download: a signed link valid for five minutes, for the owner or staff. */
const response = successData(z.object({ downloadUrl: z.string(), fileName: z.string() }));

export const loader = apiRoute(
  { method: "GET", auth: "any", params, response, summary: "A signed download link, valid for five minutes." },
  async ({ user, params }) => {
    const report = await getReportFor(user, params.id);
    return { success: true, data: { downloadUrl: createDownloadUrl(report.id), fileName: report.fileName } };
  },
);

export const action = methodNotAllowed;
