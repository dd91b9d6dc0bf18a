import { z } from "zod";
import { createDownloadUrl, getReportFor } from "~/models/reports.server";
import { apiRoute } from "~/utils/api.server";
import { methodNotAllowed } from "~/utils/http.server";

const params = z.object({ id: z.string() });

/** GET /api/reports/:id/download: a signed link valid for five minutes, for the owner or staff. */
export const loader = apiRoute({ auth: "any", params }, async ({ user, params }) => {
  const report = await getReportFor(user, params.id);
  return { success: true, data: { downloadUrl: createDownloadUrl(report.id), fileName: report.fileName } };
});

export const action = methodNotAllowed;
