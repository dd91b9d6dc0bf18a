import { and, desc, eq, isNull, sql, type Placeholder } from "drizzle-orm";
import { z } from "zod";

import { formatFileSize } from "~/domain/format";
import { isUuid, withWireId } from "~/domain/ids";
import { can, type Actor } from "~/domain/permissions";
import type { Report, ReportJson } from "~/domain/purchase";
import { line, text } from "~/domain/zod";
import { db, schema, type Tx } from "~/utils/db.server";
import { sendEmail } from "~/utils/email.server";
import { env } from "~/utils/env.server";
import { badRequest, HttpError, notFound } from "~/utils/http.server";
import { logger } from "~/utils/logger.server";
import { storage } from "~/utils/storage.server";

import { recordAudit } from "./audit.server";
import { clientIdOf, membersWho } from "./clients.server";
import { findCustomer } from "./customers.server";
import { notificationSettingsOf, notify } from "./notifications.server";
import { findPaidPurchase } from "./purchases.server";
import { claimReportNotice, releaseReportNotice } from "./report-notices.server";
import { receiveReportUpload, UPLOAD_MESSAGES } from "./report-upload.server";
import { emitEvent } from "./webhooks.server";

export { createDownloadUrl, verifyDownloadSignature, contentDisposition } from "./report-links.server";

const columns = {
  id: schema.reports.id,
  userId: schema.reports.userId,
  purchaseId: schema.reports.purchaseId,
  title: schema.reports.title,
  description: schema.reports.description,
  fileName: schema.reports.fileName,
  fileSize: schema.reports.fileSize,
  mimeType: schema.reports.mimeType,
  storageKey: schema.reports.storageKey,
  createdAt: schema.reports.createdAt,
  version: schema.reports.version,
  versionNote: schema.reports.versionNote,
  fileUpdatedAt: schema.reports.fileUpdatedAt,
  deletedAt: schema.reports.deletedAt,
  serviceId: schema.services.id,
  serviceName: schema.services.name,
};
export type ReportRow = {
  id: string;
  userId: string;
  purchaseId: string | null;
  title: string;
  description: string | null;
  fileName: string;
  fileSize: number;
  mimeType: string;
  storageKey: string;
  createdAt: Date;
  version: number;
  versionNote: string | null;
  fileUpdatedAt: Date | null;
  /** Deleted by staff: only staff still reach it, until the purge. */
  deletedAt: Date | null;
  serviceId: string;
  serviceName: string;
};

function selectReports() {
  return db.select(columns).from(schema.reports).innerJoin(schema.services, eq(schema.services.id, schema.reports.serviceId));
}
const newestFirst = [desc(schema.reports.createdAt), desc(schema.reports.id)];

/** A customer's reports, newest first; deleted ones are gone from every list at once. */
export async function listReportsForUser(userId: string): Promise<ReportRow[]> {
  if (!isUuid(userId)) return [];
  return reportsOfUser.execute({ userId });
}

/** listReportsForUser as a select not yet run (a page reads it with others: readTogether); the caller checks the id. */
export function selectReportsOfUser(userId: string | Placeholder) {
  return selectReports()
    .where(and(eq(schema.reports.userId, userId), isNull(schema.reports.deletedAt)))
    .orderBy(...newestFirst);
}

/** Built once: the signed-in read of the JSON API runs it on every call (as purchases_of_user, decision 195). */
const reportsOfUser = selectReportsOfUser(sql.placeholder("userId")).prepare("reports_of_user");

const reportsOfService = selectReports()
  .where(
    and(eq(schema.reports.userId, sql.placeholder("userId")), eq(schema.reports.serviceId, sql.placeholder("serviceId")), isNull(schema.reports.deletedAt)),
  )
  .orderBy(...newestFirst)
  .prepare("reports_of_service");

/** A customer's reports of one service, newest first (built once, as reports_of_user). */
export async function listReportsForService(userId: string, serviceId: string): Promise<ReportRow[]> {
  if (!isUuid(userId) || !isUuid(serviceId)) return [];
  return reportsOfService.execute({ userId, serviceId });
}

/** A report for someone allowed to see it; everything else is the same logged 404. */
export async function getReportFor(actor: Actor, id: string): Promise<ReportRow> {
  const row = await findReport(id);
  if (!row) throw notFound("Report not found.");
  if (!can(actor, "report:read", { ownerId: row.userId })) {
    logger.warn({ actorId: actor.id, reportId: id, ownerId: row.userId }, "refused access to another customer's report");
    throw notFound("Report not found.");
  }
  // Deleted: gone for the customer at once; staff keep it until the purge.
  if (row.deletedAt && !can(actor, "reports:list-any")) throw notFound("Report not found.");
  return row;
}

export async function findReport(id: string): Promise<ReportRow | null> {
  if (!isUuid(id)) return null;
  const [row] = await selectReports().where(eq(schema.reports.id, id)).limit(1);
  return row ?? null;
}

export function openReportFile(row: Pick<ReportRow, "storageKey">) {
  return storage.get(row.storageKey);
}

type ReportFields = Pick<
  ReportRow,
  "id" | "title" | "description" | "fileName" | "fileSize" | "mimeType" | "createdAt" | "serviceId" | "serviceName" | "userId"
>;

/** A report as the screens take it (decision 309). */
export function toReport(row: ReportFields): Report {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    fileName: row.fileName,
    fileSize: row.fileSize,
    mimeType: row.mimeType,
    createdAt: row.createdAt.toISOString(),
    service: { id: row.serviceId, name: row.serviceName },
    userId: row.userId,
  };
}

/** The Report shape of the JSON API (docs/api.md): `_id` beside `id`; a plan's report keeps its own fields beside them. */
export function toReportJson(row: ReportFields): ReportJson {
  return reportJsonOf(toReport(row));
}

export function reportJsonOf<R extends Report>({ service, ...report }: R): Omit<R, "service"> & ReportJson {
  return { _id: report.id, ...report, service: withWireId(service) };
}

const uploadFields = z.object({
  title: line(
    z.string({ error: UPLOAD_MESSAGES.title }).trim().min(1, UPLOAD_MESSAGES.title).max(200, "The report title must be at most 200 characters."),
    "The report title",
  ),
  description: text(z.string().trim().max(2000, "The description must be at most 2,000 characters."), "The description")
    .optional()
    .transform((v) => (v ? v : null)),
  userId: z.string({ error: "Please choose the customer." }).uuid("Customer not found."),
  purchaseId: z
    .string()
    .optional()
    .transform((v) => (v ? v : undefined))
    .pipe(z.string().uuid("Purchase not found.").optional()),
});

/** An upload with more than one field wrong; the API answers the first message, forms show each. */
export class UploadFieldsError extends HttpError {
  constructor(public fields: { title?: string; file?: string }) {
    super(400, fields.title ?? fields.file ?? "Invalid input.");
  }
}

/**
 * Staff upload a report for one customer's purchased service. The file is streamed to storage
 * first (it usually precedes the text fields); any later check that fails removes it again.
 */
export async function uploadReport(actor: Actor, serviceId: string, request: Request): Promise<ReportRow> {
  if (!can(actor, "report:upload")) throw new HttpError(403, "You are not allowed to do that.");
  // Refuse before reading a byte of the body when the service itself does not exist.
  if (!(await serviceExists(serviceId))) throw notFound("Service not found.");
  const upload = await receiveReportUpload(request);
  let inserted: { id: string; purchaseId: string; customer: { id: string; email: string; name: string } };
  try {
    const parsed = uploadFields.safeParse(upload.fields);
    // No title and no file: both messages, so a form (without JavaScript too) can show each under its field.
    const titleError = parsed.success ? undefined : parsed.error.issues.find((issue) => issue.path[0] === "title")?.message;
    if (titleError && !upload.file) throw new UploadFieldsError({ title: titleError, file: UPLOAD_MESSAGES.file });
    if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? "Invalid input.");
    const { title, description, userId, purchaseId } = parsed.data;
    if (!upload.file) throw badRequest(UPLOAD_MESSAGES.file, "FILE_REQUIRED");
    // Any member's id names their client, whose purchases and reports these are.
    const customer = await findCustomer((await clientIdOf(userId)) ?? userId);
    if (!customer) throw new HttpError(404, "Customer not found.", "CUSTOMER_NOT_FOUND");
    const purchase = await findPaidPurchase(customer.id, serviceId, purchaseId);
    if (!purchase) throw badRequest("This customer has not purchased this service.", "NOT_PURCHASED");

    const file = upload.file;
    const row = await db.transaction(async (tx) => {
      const [created] = await tx
        .insert(schema.reports)
        .values({
          userId: customer.id,
          serviceId,
          purchaseId: purchase.id,
          uploadedById: actor.id,
          title,
          description,
          fileName: file.fileName,
          fileSize: file.size,
          mimeType: file.mimeType,
          storageKey: file.key,
        })
        .returning({ id: schema.reports.id });
      await auditReport(tx, actor, "report.upload", { id: created.id, title, userId: customer.id }, `${file.fileName} (${formatFileSize(file.size)})`);
      return created;
    });
    inserted = { id: row.id, purchaseId: purchase.id, customer };
  } catch (error) {
    await upload.discard();
    throw error;
  }
  const report = (await findReport(inserted.id))!;
  await notifyCustomer(inserted.customer, report, inserted.purchaseId);
  return report;
}

/** A report's audit entry (decision 220), named by its title and its customer, and its report.published event, in the change's transaction. */
export async function auditReport(
  tx: Tx,
  actor: { id: string },
  action: "report.upload" | "report.replace" | "report.delete",
  report: { id: string; title: string; userId: string },
  detail: string,
) {
  const [customer] = await tx.select({ name: schema.users.name }).from(schema.users).where(eq(schema.users.id, report.userId));
  await recordAudit(
    { actor, action, target: { kind: "report", id: report.id, label: `“${report.title}” for ${customer?.name ?? "a former customer"}` }, detail },
    tx,
  );
  // An upload or a new version is what the client sees published (docs/integrations.md).
  if (action !== "report.delete")
    await emitEvent(tx, "report.published", {
      report: { _id: report.id, clientId: report.userId, title: report.title, replaced: action === "report.replace" },
    });
}

async function serviceExists(id: string) {
  if (!isUuid(id)) return false;
  const [row] = await db.select({ id: schema.services.id }).from(schema.services).where(eq(schema.services.id, id)).limit(1);
  return !!row;
}

/**
 * The report is stored either way; a mail server that is down must not undo the upload. One
 * e-mail per customer per quiet period (app/models/report-notices.server.ts): a batch of uploads
 * is one e-mail, not one each.
 */
async function reportReaders(customer: { id: string; email: string; name: string }) {
  const members = await membersWho(customer.id, "work");
  return members.length > 0 ? members : [customer];
}

async function notifyCustomer(customer: { id: string; email: string; name: string }, report: ReportRow, purchaseId: string) {
  // Every report reaches the readers' bell (docs/decisions/289); the e-mail below is once per quiet period.
  const readers = await reportReaders(customer).catch(() => [customer]);
  await notify(
    readers.map((reader) => reader.id),
    { kind: "report_ready", title: `New report: ${report.title}`, body: report.serviceName, url: `/dashboard/services/${purchaseId}`, instantEmail: false },
  ).catch((error: unknown) => logger.error({ err: error, reportId: report.id }, "could not store the new-report notifications"));
  try {
    if (!(await claimReportNotice(customer.id))) return;
  } catch (error) {
    logger.error({ err: error, reportId: report.id }, "could not claim the new-report e-mail");
    return;
  }
  try {
    // Each member of the client whose role covers the work, once (a client of one: the customer).
    for (const member of readers) {
      if ((await notificationSettingsOf(member.id)).email.report_ready !== "instant") continue;
      await sendEmail({
        to: member.email,
        category: "report_ready",
        subject: `Your new report is ready: ${report.title}`,
        heading: "A new report is ready",
        paragraphs: [
          `Hi ${member.name},`,
          `We have uploaded "${report.title}" for ${report.serviceName}. You can read and download it in your dashboard.`,
          "If we add more reports before you have had a look, they will be waiting there too: we send one e-mail, not one per report.",
        ],
        action: { label: "View your report", url: `${env.appUrl}/dashboard/services/${purchaseId}` },
      });
    }
  } catch (error) {
    await releaseReportNotice(customer.id).catch(() => {});
    logger.error({ err: error, reportId: report.id }, "could not send the new-report e-mail");
  }
}
