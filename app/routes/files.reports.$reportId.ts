import { createReadableStreamFromReadable, type LoaderFunctionArgs } from "@remix-run/node";

import { contentDisposition, findReport, getReportFor, openReportFile, verifyDownloadSignature, type ReportRow } from "~/models/reports.server";
import { logger } from "~/utils/logger.server";
import { getOptionalUser } from "~/web/auth.server";
import { pageNotFound } from "~/web/guards.server";

/*
 * GET /files/reports/:reportId — the report file itself. Either a signed link from
 * /api/reports/:id/download (works without a header for five minutes), or, for the plain
 * Download link that works without JavaScript, the signed-in owner or staff. Anything else: 404.
 */

export async function loader({ request, params }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const reportId = params.reportId ?? "";
  let report: ReportRow | null = null;
  if (url.searchParams.has("sig")) {
    if (verifyDownloadSignature(reportId, url.searchParams.get("expires"), url.searchParams.get("sig"))) {
      // A link handed out before the report was deleted stops working with the deletion.
      report = await findReport(reportId).then((row) => (row?.deletedAt ? null : row));
    } else {
      logger.warn({ reportId }, "refused a report download with a bad or expired signature");
    }
  } else {
    const user = await getOptionalUser(request);
    if (user) report = await getReportFor(user, reportId).catch(() => null);
  }
  if (!report) return pageNotFound();

  let body;
  try {
    body = await openReportFile(report);
  } catch (error) {
    logger.error({ err: error, reportId }, "report file missing from storage");
    return pageNotFound();
  }
  return new Response(createReadableStreamFromReadable(body), {
    headers: {
      "Content-Type": report.mimeType,
      "Content-Length": String(report.fileSize),
      "Content-Disposition": contentDisposition(report.fileName),
      "Cache-Control": "no-store",
      "Content-Security-Policy": "default-src 'none'; sandbox",
    },
  });
}
