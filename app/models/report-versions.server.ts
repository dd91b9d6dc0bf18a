import { and, asc, desc, eq, inArray, isNotNull, lt } from "drizzle-orm";

import { formatFileSize } from "~/domain/format";
import { isUuid } from "~/domain/ids";
import { can, type Actor } from "~/domain/permissions";
import { REPORT_NOTE_MAX, REPORT_PURGE_AFTER_MS } from "~/domain/report";
import { breaksTextRule, controlCharacterMessage } from "~/domain/zod";
import { db, schema } from "~/utils/db.server";
import { badRequest, HttpError, notFound } from "~/utils/http.server";
import { logger } from "~/utils/logger.server";
import { storage } from "~/utils/storage.server";
import { startSweep } from "~/utils/sweep.server";

import { receiveReportUpload } from "./report-upload.server";
import { auditReport, findReport, type ReportRow } from "./reports.server";

/*
 * A report's versions and its deletion (docs/decisions/221). The report row always
 * holds the file customers get; replacing it moves the old file's row into report_versions, which
 * only staff read. Deleting marks the report: customers stop seeing it at once (lists, downloads,
 * signed links), staff keep it for 30 days, then the purge removes its rows and every file.
 */

const r = schema.reports;
const v = schema.reportVersions;

export interface ReportVersion {
  id: string | null;
  version: number;
  fileName: string;
  fileSize: number;
  mimeType: string;
  note: string | null;
  uploadedAt: Date;
  current: boolean;
}

/** The note sent with a new version: optional, one paragraph of plain text. */
function parseNote(raw: string | undefined): string | null {
  const note = (raw ?? "").trim();
  if (note.length > REPORT_NOTE_MAX) throw badRequest(`The note must be at most ${REPORT_NOTE_MAX.toLocaleString("en-US")} characters.`);
  if (breaksTextRule(note, { multiline: true })) throw badRequest(controlCharacterMessage("The note"));
  return note || null;
}

/**
 * Staff replace a report's file (multipart `file`, `note?`). The file is streamed to storage
 * first; the swap is one transaction that locks the report, so two replacements at once each
 * keep the other's file as a version. A report deleted meanwhile is 404 and the new file is removed.
 */
export async function replaceReport(actor: Actor, reportId: string, request: Request): Promise<ReportRow> {
  if (!can(actor, "report:upload")) throw new HttpError(403, "You are not allowed to do that.");
  const existing = await findReport(reportId);
  // Refuse before reading a byte of the body when there is nothing to replace.
  if (!existing || existing.deletedAt) throw notFound("Report not found.");
  const upload = await receiveReportUpload(request, "file");
  try {
    const note = parseNote(upload.fields.note);
    const file = upload.file;
    if (!file) throw badRequest("Please select a file to upload", "FILE_REQUIRED");
    await db.transaction(async (tx) => {
      const [current] = await tx.select().from(r).where(eq(r.id, existing.id)).for("update");
      if (!current || current.deletedAt) throw notFound("Report not found.");
      await tx.insert(v).values({
        reportId: current.id,
        version: current.version,
        fileName: current.fileName,
        fileSize: current.fileSize,
        mimeType: current.mimeType,
        storageKey: current.storageKey,
        note: current.versionNote,
        uploadedById: current.uploadedById,
        uploadedAt: current.fileUpdatedAt ?? current.createdAt,
      });
      const version = current.version + 1;
      await tx
        .update(r)
        .set({
          version,
          fileName: file.fileName,
          fileSize: file.size,
          mimeType: file.mimeType,
          storageKey: file.key,
          versionNote: note,
          uploadedById: actor.id,
          fileUpdatedAt: new Date(),
        })
        .where(eq(r.id, current.id));
      await auditReport(tx, actor, "report.replace", current, `Version ${version}: ${file.fileName} (${formatFileSize(file.size)})${note ? ` — ${note}` : ""}`);
    });
  } catch (error) {
    await upload.discard();
    throw error;
  }
  logger.info({ reportId: existing.id, by: actor.id }, "report replaced with a new version");
  return (await findReport(existing.id))!;
}

/** Every version of a report, the current one first (staff). */
export async function listReportVersions(report: ReportRow): Promise<ReportVersion[]> {
  const older = await db.select().from(v).where(eq(v.reportId, report.id)).orderBy(desc(v.version));
  return [
    {
      id: null,
      version: report.version,
      fileName: report.fileName,
      fileSize: report.fileSize,
      mimeType: report.mimeType,
      note: report.versionNote,
      uploadedAt: report.fileUpdatedAt ?? report.createdAt,
      current: true,
    },
    ...older.map((row) => ({
      id: row.id,
      version: row.version,
      fileName: row.fileName,
      fileSize: row.fileSize,
      mimeType: row.mimeType,
      note: row.note,
      uploadedAt: row.uploadedAt,
      current: false,
    })),
  ];
}

/** An earlier version's file record, for staff to download; null when it is not this report's. */
export async function findReportVersion(reportId: string, versionId: string) {
  if (!isUuid(reportId) || !isUuid(versionId)) return null;
  const [row] = await db
    .select()
    .from(v)
    .where(and(eq(v.id, versionId), eq(v.reportId, reportId)))
    .limit(1);
  return row ?? null;
}

/** Staff delete a report: gone for the customer now, kept for staff until the purge. 404 when already deleted. */
export async function deleteReport(actor: Actor, reportId: string): Promise<void> {
  if (!can(actor, "report:upload")) throw new HttpError(403, "You are not allowed to do that.");
  if (!isUuid(reportId)) throw notFound("Report not found.");
  await db.transaction(async (tx) => {
    const [current] = await tx.select().from(r).where(eq(r.id, reportId)).for("update");
    if (!current || current.deletedAt) throw notFound("Report not found.");
    const deletedAt = new Date();
    await tx.update(r).set({ deletedAt, deletedById: actor.id }).where(eq(r.id, reportId));
    const purgeOn = new Date(deletedAt.getTime() + REPORT_PURGE_AFTER_MS).toISOString().slice(0, 10);
    await auditReport(tx, actor, "report.delete", current, `Hidden from the customer; files purged on ${purgeOn}`);
  });
  logger.info({ reportId, by: actor.id }, "report deleted");
}

/** A customer's deleted reports still kept (staff see them until the purge), newest deletion first. */
export function selectDeletedReports(userId: string) {
  return db
    .select({ id: r.id, title: r.title, deletedAt: r.deletedAt })
    .from(r)
    .where(and(eq(r.userId, userId), isNotNull(r.deletedAt)))
    .orderBy(desc(r.deletedAt), desc(r.id));
}

const PURGE_BATCH = 100;
export const REPORT_PURGE_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Removes reports deleted more than 30 days ago with all their versions: the rows first, in
 * batches taken with `for update skip locked` (nodes purging at once split the rows, none does a
 * row twice), then each stored file. A file whose delete fails stays behind (logged); a row never
 * points at a missing file. Returns how many reports were purged.
 */
export async function purgeDeletedReports(now = Date.now()): Promise<number> {
  const cutoff = new Date(now - REPORT_PURGE_AFTER_MS);
  let purged = 0;
  for (;;) {
    const { count, keys } = await db.transaction(async (tx) => {
      const due = await tx
        .select({ id: r.id, storageKey: r.storageKey })
        .from(r)
        .where(and(isNotNull(r.deletedAt), lt(r.deletedAt, cutoff)))
        .orderBy(asc(r.deletedAt))
        .limit(PURGE_BATCH)
        .for("update", { skipLocked: true });
      if (due.length === 0) return { count: 0, keys: [] as string[] };
      const ids = due.map((row) => row.id);
      const versions = await tx.select({ storageKey: v.storageKey }).from(v).where(inArray(v.reportId, ids));
      // The versions' rows go with their report (on delete cascade).
      await tx.delete(r).where(inArray(r.id, ids));
      return { count: due.length, keys: [...due.map((row) => row.storageKey), ...versions.map((row) => row.storageKey)] };
    });
    for (const key of keys) {
      await storage.delete(key).catch((error: unknown) => logger.warn({ err: error, key }, "removing a purged report's file failed"));
    }
    purged += count;
    if (count < PURGE_BATCH) return purged;
  }
}

/** The purge, every hour, as a job (once across nodes). */
export function startReportPurge(): () => void {
  return startSweep({
    kind: "report-purge",
    everyMs: REPORT_PURGE_INTERVAL_MS,
    work: purgeDeletedReports,
    done: "purged deleted reports",
    failed: "the deleted report purge failed",
  });
}
