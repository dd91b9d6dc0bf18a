import { eq } from "drizzle-orm";

import * as versionsApi from "~/routes/api+/reports+/$id.versions";
import { db, schema } from "~/utils/db.server";

import { call, type Account } from "./dashboard-helpers";

/** Shared by the disk and S3 report-version tests: a new version's upload and the purge's clock. */

export function postVersion(staff: Account | { cookie: string }, reportId: string, file: { name: string; bytes: Buffer } | null, note?: string) {
  const form = new FormData();
  if (file) form.append("file", new Blob([new Uint8Array(file.bytes)]), file.name);
  if (note !== undefined) form.append("note", note);
  return call(versionsApi.action, `/api/reports/${reportId}/versions`, { auth: staff, method: "POST", body: form, params: { id: reportId } });
}

/** Moves a deletion back in time (the purge keeps a report 30 days). */
export async function deletedDaysAgo(reportId: string, days: number) {
  await db
    .update(schema.reports)
    .set({ deletedAt: new Date(Date.now() - days * 86400_000) })
    .where(eq(schema.reports.id, reportId));
}

export async function versionKeys(reportId: string) {
  const rows = await db.select({ key: schema.reportVersions.storageKey }).from(schema.reportVersions).where(eq(schema.reportVersions.reportId, reportId));
  return rows.map((row) => row.key);
}
