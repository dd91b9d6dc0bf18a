import { createReadableStreamFromReadable, type LoaderFunctionArgs } from "@remix-run/node";

import { can } from "~/domain/permissions";
import { findReportVersion } from "~/models/report-versions.server";
import { contentDisposition, openReportFile } from "~/models/reports.server";
import { logger } from "~/utils/logger.server";
import { getOptionalUser } from "~/web/auth.server";
import { pageNotFound } from "~/web/guards.server";

/*
 * GET /files/reports/:reportId/versions/:versionId — an earlier version of a report, for staff
 * (session or bearer) only: customers only ever get the current file. Anything else: 404.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  // An account held to its second-factor set-up counts as signed out here, as everywhere.
  const user = await getOptionalUser(request);
  if (!user || !can(user, "reports:list-any")) return pageNotFound();
  const version = await findReportVersion(params.reportId ?? "", params.versionId ?? "");
  if (!version) return pageNotFound();
  let body;
  try {
    body = await openReportFile(version);
  } catch (error) {
    logger.error({ err: error, versionId: version.id }, "report version file missing from storage");
    return pageNotFound();
  }
  return new Response(createReadableStreamFromReadable(body), {
    headers: {
      "Content-Type": version.mimeType,
      "Content-Length": String(version.fileSize),
      "Content-Disposition": contentDisposition(version.fileName),
      "Cache-Control": "no-store",
      "Content-Security-Policy": "default-src 'none'; sandbox",
    },
  });
}
