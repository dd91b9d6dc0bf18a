import { and, desc, eq, isNull } from "drizzle-orm";
import type { z } from "zod";

import { isLiveStatus, reportPeriod } from "~/domain/billing";
import { formatFileSize } from "~/domain/format";
import { isUuid } from "~/domain/ids";
import { can, type Actor } from "~/domain/permissions";
import type { Report } from "~/domain/purchase";
import { UPLOAD_MESSAGES } from "~/domain/report";
import type { planReportResponse } from "~/domain/schemas/billing-api";
import { breaksTextRule, controlCharacterMessage } from "~/domain/zod";
import { db, schema } from "~/utils/db.server";
import { sendEmail } from "~/utils/email.server";
import { env } from "~/utils/env.server";
import { badRequest, HttpError, notFound } from "~/utils/http.server";
import { logger } from "~/utils/logger.server";

import { findPlan } from "./catalogue.server";
import { membersWho } from "./clients.server";
import { notificationSettingsOf, notify } from "./notifications.server";
import { receiveReportUpload } from "./report-upload.server";
import { auditReport, reportJsonOf, toReport } from "./reports.server";
import { findSubscription, planFor } from "./subscriptions.server";

/*
 * Reports per plan period: staff upload a report against a subscription's current month; the
 * subscriber finds it under their plan. A report row needs a service, so each plan has one
 * inactive service row of its own (slug `plan-<key>`), never shown in the catalogue's pickers.
 */

/** A plan period's report as the API answers it (from planReportResponse). */
export type PlanReportJson = z.infer<typeof planReportResponse>["data"];
/** A plan period's report as the screens take it (decision 309): ids as `id`. */
export type PlanReport = Report & { period: string; subscriptionId: string };

/** The service row that stands for a plan in reports (created on first use). */
export async function ensurePlanService(planKey: string) {
  const plan = await findPlan(planKey);
  const slug = `plan-${planKey}`;
  await db
    .insert(schema.services)
    .values({ slug, name: plan?.name ?? planKey, description: plan?.tagline ?? null, priceCents: plan?.priceCents ?? 0, active: false, sortOrder: 2000 })
    .onConflictDoNothing({ target: schema.services.slug });
  const [row] = await db.select().from(schema.services).where(eq(schema.services.slug, slug));
  return row!;
}

const columns = {
  id: schema.reports.id,
  userId: schema.reports.userId,
  title: schema.reports.title,
  description: schema.reports.description,
  fileName: schema.reports.fileName,
  fileSize: schema.reports.fileSize,
  mimeType: schema.reports.mimeType,
  createdAt: schema.reports.createdAt,
  period: schema.reports.period,
  subscriptionId: schema.reports.subscriptionId,
  serviceId: schema.services.id,
  serviceName: schema.services.name,
};

type Row = { [K in keyof typeof columns]: (typeof columns)[K]["_"]["data"] | (K extends "description" | "period" | "subscriptionId" ? null : never) };

function toJson(row: Row): PlanReportJson {
  return reportJsonOf(toPlanReport(row));
}

function toPlanReport(row: Row): PlanReport {
  return { ...toReport(row), period: row.period ?? reportPeriod(row.createdAt), subscriptionId: row.subscriptionId ?? "" };
}

/** A plan's reports, newest first (each carries the month it covers). */
export async function listPlanReports(subscriptionId: string): Promise<PlanReport[]> {
  if (!isUuid(subscriptionId)) return [];
  const rows = await db
    .select(columns)
    .from(schema.reports)
    .innerJoin(schema.services, eq(schema.services.id, schema.reports.serviceId))
    .where(and(eq(schema.reports.subscriptionId, subscriptionId), isNull(schema.reports.deletedAt)))
    .orderBy(desc(schema.reports.createdAt), desc(schema.reports.id));
  return rows.map((row) => toPlanReport(row as Row));
}

const NOT_LIVE = "Reports can be uploaded only for a plan that is running.";

/**
 * Staff upload a report for a subscription's current month (multipart report, title,
 * description?). The file is streamed to storage first; a later failed check removes it.
 */
export async function uploadPlanReport(actor: Actor, subscriptionId: string, request: Request): Promise<PlanReportJson> {
  if (!can(actor, "report:upload")) throw new HttpError(403, "You are not allowed to do that.");
  const subscription = await findSubscription(subscriptionId);
  if (!subscription || !subscription.userId) throw notFound("Plan not found.");
  if (!isLiveStatus(subscription.status)) throw new HttpError(409, NOT_LIVE, "PLAN_NOT_LIVE");
  const upload = await receiveReportUpload(request);
  let id: string;
  try {
    const title = (upload.fields.title ?? "").trim();
    const description = (upload.fields.description ?? "").trim();
    if (!title) throw badRequest(UPLOAD_MESSAGES.title);
    if (title.length > 200) throw badRequest("The report title must be at most 200 characters.");
    if (description.length > 2000) throw badRequest("The description must be at most 2,000 characters.");
    if (breaksTextRule(title)) throw badRequest(controlCharacterMessage("The report title"));
    if (breaksTextRule(description, { multiline: true })) throw badRequest(controlCharacterMessage("The description"));
    if (!upload.file) throw badRequest(UPLOAD_MESSAGES.file, "FILE_REQUIRED");
    const service = await ensurePlanService(subscription.planId);
    const file = upload.file;
    const userId = subscription.userId;
    const row = await db.transaction(async (tx) => {
      const [created] = await tx
        .insert(schema.reports)
        .values({
          userId,
          serviceId: service.id,
          subscriptionId: subscription.id,
          period: reportPeriod(),
          uploadedById: actor.id,
          title,
          description: description || null,
          fileName: file.fileName,
          fileSize: file.size,
          mimeType: file.mimeType,
          storageKey: file.key,
        })
        .returning({ id: schema.reports.id });
      await auditReport(
        tx,
        actor,
        "report.upload",
        { id: created.id, title, userId },
        `${file.fileName} (${formatFileSize(file.size)}) for the ${service.name} plan`,
      );
      return created;
    });
    id = row.id;
  } catch (error) {
    await upload.discard();
    throw error;
  }
  const [report] = (
    await db
      .select(columns)
      .from(schema.reports)
      .innerJoin(schema.services, eq(schema.services.id, schema.reports.serviceId))
      .where(and(eq(schema.reports.id, id)))
  ).map((row) => toJson(row as Row));
  await notifySubscriber(subscription.userId, subscription.id, subscription.planId, report);
  return report;
}

async function notifySubscriber(userId: string, subscriptionId: string, planKey: string, report: PlanReportJson) {
  try {
    const [customer] = await db.select({ email: schema.users.email, name: schema.users.name }).from(schema.users).where(eq(schema.users.id, userId));
    if (!customer) return;
    // The bell of each member who follows the work (docs/decisions/289).
    const readers = await membersWho(userId, "work");
    await notify(readers.length > 0 ? readers.map((reader) => reader.id) : [userId], {
      kind: "report_ready",
      title: `New report: ${report.title}`,
      url: `/dashboard/plans/${subscriptionId}`,
      instantEmail: false,
    });
    if ((await notificationSettingsOf(userId)).email.report_ready !== "instant") return;
    await sendEmail({
      to: customer.email,
      category: "report_ready",
      subject: `Your new report is ready: ${report.title}`,
      heading: "A new report is ready",
      paragraphs: [
        `Hi ${customer.name},`,
        `We have uploaded "${report.title}" for your ${(await planFor(planKey)).name} plan. You can read and download it in your dashboard.`,
      ],
      action: { label: "View your report", url: `${env.appUrl}/dashboard/plans/${subscriptionId}` },
    });
  } catch (error) {
    logger.error({ err: error, reportId: report.id }, "could not send the new-report e-mail");
  }
}
