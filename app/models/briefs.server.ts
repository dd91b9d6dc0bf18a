import { and, asc, desc, eq, inArray, isNull, lte, notInArray, or, sql } from "drizzle-orm";
import type { z } from "zod";

import { LIVE_SUBSCRIPTION_STATUSES } from "~/domain/billing";
import { briefQuestionsSchema, checkAnswers, missingMessage, type BriefQuestion } from "~/domain/brief";
import { supportRoomId } from "~/domain/chat";
import type { CustomerBrief } from "~/domain/customer";
import { isUuid } from "~/domain/ids";
import { can, memberCan, type Actor } from "~/domain/permissions";
import type { briefJson } from "~/domain/schemas/brief-api";
import { db, schema, type Tx } from "~/utils/db.server";
import { sendEmail } from "~/utils/email.server";
import { env } from "~/utils/env.server";
import { HttpError, notFound } from "~/utils/http.server";
import { logger } from "~/utils/logger.server";
import { startSweep } from "~/utils/sweep.server";

import { recordAudit } from "./audit.server";
import { membersWho } from "./clients.server";
import { notifyOfSubmittedBrief } from "./notifications.server";
import { getPurchaseFor, PAID_STATUSES } from "./purchases.server";
import { getSubscriptionFor, planFor } from "./subscriptions.server";
import { emitEvent } from "./webhooks.server";

/*
 * Briefs (decision 200). Staff keep a list of questions per service and per plan (brief_forms). When
 * a purchase or a subscription is paid, it gets a brief holding a copy of those questions (none
 * asked: no brief), so later edits change only later orders (decision 200). The buyer answers it
 * once, and may correct it after; staff read it. File answers are chat attachments the buyer
 * uploaded to their support thread; a brief that names one keeps it (brief_id) and opens it to
 * the team. One reminder e-mail goes out 48 hours after payment while it is still unanswered,
 * claimed by a conditional update so that any number of nodes send it once.
 */

const b = schema.briefs;
const f = schema.briefForms;
const att = schema.chatAttachments;

export type BriefSubject = "service" | "plan";
export type BriefRow = typeof b.$inferSelect;

/** A brief as the API sends it: its schema's type. */
export type BriefJson = z.infer<typeof briefJson>;

export const BRIEF_REMINDER_DELAY_MS = 48 * 60 * 60 * 1000;
export const BRIEF_REMINDER_SWEEP_MS = 10 * 60 * 1000;
const REMINDER_BATCH = 50;

export const NO_BRIEF_MESSAGE = "This order has no brief to fill in.";

/* ---------- the questions of a service or a plan ---------- */

/** The service or plan a brief form belongs to: a service by id, a plan by id or key; 404 otherwise. */
async function resolveSubject(subject: BriefSubject, idOrKey: string): Promise<{ id: string; name: string }> {
  if (subject === "service") {
    const [service] = isUuid(idOrKey)
      ? await db.select({ id: schema.services.id, name: schema.services.name }).from(schema.services).where(eq(schema.services.id, idOrKey)).limit(1)
      : [];
    if (!service) throw notFound("Service not found.");
    return service;
  }
  if (!isUuid(idOrKey) && !/^[a-z0-9_-]{1,40}$/i.test(idOrKey)) throw notFound("Plan not found.");
  const [plan] = await db
    .select({ id: schema.plans.id, name: schema.plans.name })
    .from(schema.plans)
    .where(isUuid(idOrKey) ? or(eq(schema.plans.id, idOrKey), eq(schema.plans.key, idOrKey)) : eq(schema.plans.key, idOrKey))
    .limit(1);
  if (!plan) throw notFound("Plan not found.");
  return plan;
}

/** Staff replace the questions of a service or a plan; orders paid from now on ask these. */
export async function setBriefQuestions(actor: Actor, subject: BriefSubject, idOrKey: string, input: unknown): Promise<BriefQuestion[]> {
  if (!can(actor, "catalogue:manage")) throw new HttpError(403, "You are not allowed to do that.");
  const target = await resolveSubject(subject, idOrKey);
  const parsed = briefQuestionsSchema.safeParse(input);
  if (!parsed.success) throw new HttpError(400, parsed.error.issues[0]?.message ?? "The questions are not valid.", "INVALID_INPUT");
  const questions = parsed.data;
  await db.transaction(async (tx) => {
    await tx
      .insert(f)
      .values({ subject, subjectId: target.id, questions, updatedById: actor.id })
      .onConflictDoUpdate({ target: [f.subject, f.subjectId], set: { questions, updatedById: actor.id, updatedAt: new Date() } });
    // What later buyers are asked is a change customers see: it goes in the audit log with the change.
    await recordAudit(
      {
        actor,
        action: subject === "service" ? "service.brief" : "plan.brief",
        target: { kind: subject, id: target.id, label: target.name },
        detail:
          questions.length === 0
            ? "No questions: buyers get no brief"
            : `${questions.length} ${questions.length === 1 ? "question" : "questions"}: ${questions.map((q) => q.label).join("; ")}`,
      },
      tx,
    );
  });
  logger.info({ actorId: actor.id, subject, subjectId: target.id, count: questions.length }, "brief questions changed");
  return questions;
}

/** The questions a service or a plan asks now (none: an empty list); 404 for an unknown one. */
export async function getBriefQuestions(subject: BriefSubject, idOrKey: string): Promise<BriefQuestion[]> {
  const target = await resolveSubject(subject, idOrKey);
  const [row] = await db
    .select({ questions: f.questions })
    .from(f)
    .where(and(eq(f.subject, subject), eq(f.subjectId, target.id)))
    .limit(1);
  return row?.questions ?? [];
}

/* ---------- a customer's own briefs (their data export) ---------- */

/** Every brief of one customer, oldest first: what was asked and what they answered. */
export async function listBriefsOfUser(userId: string) {
  const rows = await db
    .select({
      _id: schema.briefs.id,
      purchaseId: schema.briefs.purchaseId,
      subscriptionId: schema.briefs.subscriptionId,
      questions: schema.briefs.questions,
      answers: schema.briefs.answers,
      submittedAt: schema.briefs.submittedAt,
    })
    .from(schema.briefs)
    .where(eq(schema.briefs.userId, userId))
    .orderBy(asc(schema.briefs.createdAt), asc(schema.briefs.id));
  return rows.map((row) => ({ ...row, submittedAt: row.submittedAt?.toISOString() ?? null }));
}

/* ---------- opening briefs at payment ---------- */

/**
 * In the fulfilment's transaction: a brief for each purchase of the order whose service asks
 * questions, or for the plan's subscription. Idempotent (one brief per purchase or subscription).
 */
export async function openBriefs(tx: Tx, orderId: string, userId: string, paidAt: Date) {
  const purchases = await tx
    .select({ id: schema.purchases.id, questions: f.questions })
    .from(schema.purchases)
    .innerJoin(f, and(eq(f.subject, "service"), eq(f.subjectId, schema.purchases.serviceId)))
    .where(eq(schema.purchases.orderId, orderId));
  const subscriptions = await tx
    .select({ id: schema.subscriptions.id, questions: f.questions })
    .from(schema.subscriptions)
    .innerJoin(schema.plans, eq(schema.plans.key, schema.subscriptions.planId))
    .innerJoin(f, and(eq(f.subject, "plan"), eq(f.subjectId, schema.plans.id)))
    .where(eq(schema.subscriptions.orderId, orderId));
  const rows = [
    ...purchases.filter((p) => p.questions.length > 0).map((p) => ({ purchaseId: p.id, userId, questions: p.questions, paidAt })),
    ...subscriptions.filter((s) => s.questions.length > 0).map((s) => ({ subscriptionId: s.id, userId, questions: s.questions, paidAt })),
  ];
  if (rows.length > 0) await tx.insert(b).values(rows).onConflictDoNothing();
}

/* ---------- reading ---------- */

export const toBriefJson = (row: BriefRow | null): BriefJson =>
  row
    ? { questions: row.questions, answers: row.answers, submittedAt: row.submittedAt?.toISOString() ?? null }
    : { questions: [], answers: {}, submittedAt: null };

export type BriefOf = { kind: "purchase"; id: string } | { kind: "subscription"; id: string };

/** Checks that the actor may see the purchase or subscription (404 otherwise); its owner's id and name. */
async function ownerOf(actor: Actor, of: BriefOf): Promise<{ ownerId: string; title: string }> {
  if (of.kind === "purchase") {
    const purchase = await getPurchaseFor(actor, of.id);
    return { ownerId: purchase.userId ?? "", title: purchase.serviceName };
  }
  const subscription = await getSubscriptionFor(actor, of.id);
  // A plan is also billing's to see; its brief is the work's (a billing member: not there).
  if (actor.role === "user" && !memberCan(actor, "work")) throw notFound("Plan not found.");
  return { ownerId: subscription.userId ?? "", title: `${(await planFor(subscription.planId)).name} plan` };
}

async function findBrief(of: BriefOf): Promise<BriefRow | null> {
  const [row] = await db
    .select()
    .from(b)
    .where(of.kind === "purchase" ? eq(b.purchaseId, of.id) : eq(b.subscriptionId, of.id))
    .limit(1);
  return row ?? null;
}

/** A file a brief's answer names, as the brief's screens take it (decision 309). */
export interface BriefFile {
  id: string;
  fileName: string;
  mimeType: string;
  fileSize: number;
}

export interface BriefView {
  brief: BriefRow | null;
  json: BriefJson;
  title: string;
  ownerId: string;
  /** The files its answers name, by id. */
  files: Record<string, BriefFile>;
}

/** A brief for its owner or staff (404 for anyone else, and for an id that is not theirs). */
export async function getBrief(actor: Actor, of: BriefOf): Promise<BriefView> {
  const { ownerId, title } = await ownerOf(actor, of);
  const brief = await findBrief(of);
  return { brief, json: toBriefJson(brief), title, ownerId, files: brief ? await briefFiles(brief.id) : {} };
}

async function briefFiles(briefId: string): Promise<Record<string, BriefFile>> {
  const rows = await db
    .select({ id: att.id, fileName: att.fileName, mimeType: att.mimeType, fileSize: att.fileSize })
    .from(att)
    .where(eq(att.briefId, briefId));
  return Object.fromEntries(rows.map((row) => [row.id, row]));
}

/** The files answering any brief of one customer, each with its brief, as a select not yet run (a page reads it with others: readTogether). */
export function selectBriefFilesOfUser(userId: string) {
  return db
    .select({ briefId: att.briefId, id: att.id, fileName: att.fileName, mimeType: att.mimeType, fileSize: att.fileSize })
    .from(att)
    .where(inArray(att.briefId, db.select({ id: b.id }).from(b).where(eq(b.userId, userId))));
}

/* ---------- answering ---------- */

/**
 * The owner sends their answers (the whole brief each time). 400 naming each required question
 * left empty, and for any answer that breaks its question's rules; file answers must be the
 * owner's own uploads to their support thread, not sent in the chat. Staff: 403. A purchase or
 * plan with no brief: 409. The first sending is `submittedAt`; a correction keeps it.
 */
export async function submitBrief(actor: Actor, of: BriefOf, rawAnswers: unknown): Promise<BriefView> {
  const { ownerId, title } = await ownerOf(actor, of);
  if (!can(actor, "brief:answer", { ownerId })) throw new HttpError(403, "Only the customer answers their brief.", "FORBIDDEN");
  const brief = await findBrief(of);
  if (!brief) throw new HttpError(409, NO_BRIEF_MESSAGE, "CONFLICT");
  const checked = checkAnswers(brief.questions, rawAnswers);
  const problems = Object.values(checked.errors);
  if (checked.missing.length > 0) problems.unshift(missingMessage(checked.missing));
  const fileIds = brief.questions.filter((q) => q.kind === "file").flatMap((q) => (checked.answers[q.key] as string[] | undefined) ?? []);
  const usable = await usableFiles(ownerId, brief.id, fileIds);
  for (const question of brief.questions.filter((q) => q.kind === "file")) {
    const ids = (checked.answers[question.key] as string[] | undefined) ?? [];
    if (ids.some((id) => !usable.has(id)))
      problems.push(`"${question.label}": a file was not found. Upload it again (files you upload are kept a day until the brief is sent).`);
  }
  if (problems.length > 0) throw new HttpError(400, problems.join(" "), "INVALID_INPUT");
  const now = new Date();
  const updated = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(b)
      .set({ answers: checked.answers, submittedAt: sql`coalesce(${b.submittedAt}, ${now.toISOString()}::timestamptz)`, updatedAt: now })
      .where(eq(b.id, brief.id))
      .returning();
    // Files no longer named go back to being unsent uploads (swept after a day); the named ones stay.
    await tx
      .update(att)
      .set({ briefId: null })
      .where(and(eq(att.briefId, brief.id), fileIds.length ? notInArray(att.id, fileIds) : undefined));
    if (fileIds.length) await tx.update(att).set({ briefId: brief.id }).where(inArray(att.id, fileIds));
    await emitEvent(tx, "brief.submitted", {
      brief: {
        _id: row!.id,
        clientId: ownerId,
        title,
        corrected: brief.submittedAt !== null,
        answers: checked.answers,
        submittedAt: row!.submittedAt?.toISOString() ?? null,
      },
    });
    return row!;
  });
  logger.info({ briefId: brief.id, userId: ownerId }, brief.submittedAt ? "brief corrected" : "brief submitted");
  // The team's bell, the first time it is sent (docs/decisions/289).
  if (!brief.submittedAt)
    await notifyOfSubmittedBrief({ title, clientId: ownerId }).catch((error: unknown) =>
      logger.warn({ err: error, briefId: brief.id }, "could not store the brief notifications"),
    );
  return { brief: updated, json: toBriefJson(updated), title, ownerId, files: await briefFiles(updated.id) };
}

/** The ids among `ids` the owner may name: their own unsent uploads to their thread, or files this brief already names. */
async function usableFiles(ownerId: string, briefId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: att.id })
    .from(att)
    .where(
      and(
        inArray(att.id, ids),
        eq(att.uploaderId, ownerId),
        eq(att.roomId, supportRoomId(ownerId)),
        or(and(isNull(att.messageId), isNull(att.briefId)), eq(att.briefId, briefId)),
      ),
    );
  return new Set(rows.map((row) => row.id));
}

/* ---------- "Brief needed" ---------- */

/** A brief still owed: its purchase is paid work, or its plan is live (a refund or a cancelled plan owes nothing). */
const stillOwed = sql`(
  (${b.purchaseId} is not null and exists (select 1 from ${schema.purchases} p where p.id = ${b.purchaseId} and p.status in (${sql.join(
    PAID_STATUSES.map((s) => sql`${s}`),
    sql`, `,
  )})))
  or (${b.subscriptionId} is not null and exists (select 1 from ${schema.subscriptions} s where s.id = ${b.subscriptionId} and s.status in (${sql.join(
    LIVE_SUBSCRIPTION_STATUSES.map((s) => sql`${s}`),
    sql`, `,
  )})))
)`;

type Titled = { purchaseId: string | null; subscriptionId: string | null; serviceName: string | null; planKey: string | null };
const titleOf = async (row: Titled) => row.serviceName ?? `${(await planFor(row.planKey ?? "")).name} plan`;
const briefHref = (row: Titled) => (row.purchaseId ? `/dashboard/services/${row.purchaseId}/brief` : `/dashboard/plans/${row.subscriptionId}/brief`);

export interface BriefNeeded {
  /** The purchase's or subscription's id. */
  id: string;
  title: string;
  href: string;
}

/** The briefs still owed and unanswered, of one customer or of one order (the success page), oldest first. */
export async function listBriefsNeeded(of: { userId: string } | { orderId: string }): Promise<BriefNeeded[]> {
  const rows = await db
    .select({ purchaseId: b.purchaseId, subscriptionId: b.subscriptionId, serviceName: schema.services.name, planKey: schema.subscriptions.planId })
    .from(b)
    .leftJoin(schema.purchases, eq(schema.purchases.id, b.purchaseId))
    .leftJoin(schema.services, eq(schema.services.id, schema.purchases.serviceId))
    .leftJoin(schema.subscriptions, eq(schema.subscriptions.id, b.subscriptionId))
    .where(
      and(
        isNull(b.submittedAt),
        stillOwed,
        "userId" in of ? eq(b.userId, of.userId) : or(eq(schema.purchases.orderId, of.orderId), eq(schema.subscriptions.orderId, of.orderId)),
      ),
    )
    .orderBy(asc(b.paidAt), asc(b.id));
  return Promise.all(rows.map(async (row) => ({ id: (row.purchaseId ?? row.subscriptionId)!, title: await titleOf(row), href: briefHref(row) })));
}

/**
 * Every brief of one customer, or of one order's purchases and plan (staff reading: the customer
 * pane, the customer page, the order page), newest first, with its questions, answers and files.
 * The caller has checked that the reader is staff.
 */
export async function listBriefsForStaff(of: { userId: string } | { orderId: string }): Promise<CustomerBrief[]> {
  const rows = await selectBriefsForStaff(of);
  return Promise.all(
    rows.map(async (row) => {
      const titled = { purchaseId: row.brief.purchaseId, subscriptionId: row.brief.subscriptionId, serviceName: row.serviceName, planKey: row.planKey };
      return staffBrief(row, await titleOf(titled), await briefFiles(row.brief.id));
    }),
  );
}

/** listBriefsForStaff's rows, as a select not yet run (a page reads it with others: readTogether). */
export function selectBriefsForStaff(of: { userId: string } | { orderId: string }) {
  return db
    .select({ brief: b, serviceName: schema.services.name, planKey: schema.subscriptions.planId })
    .from(b)
    .leftJoin(schema.purchases, eq(schema.purchases.id, b.purchaseId))
    .leftJoin(schema.services, eq(schema.services.id, schema.purchases.serviceId))
    .leftJoin(schema.subscriptions, eq(schema.subscriptions.id, b.subscriptionId))
    .where("userId" in of ? eq(b.userId, of.userId) : or(eq(schema.purchases.orderId, of.orderId), eq(schema.subscriptions.orderId, of.orderId)))
    .orderBy(desc(b.paidAt), desc(b.id));
}

type StaffBriefRow = Awaited<ReturnType<typeof selectBriefsForStaff>>[number];

function staffBrief({ brief, serviceName, planKey }: StaffBriefRow, title: string, files: Record<string, BriefFile>): CustomerBrief {
  const titled = { purchaseId: brief.purchaseId, subscriptionId: brief.subscriptionId, serviceName, planKey };
  return { id: brief.id, title, href: briefHref(titled), ...toBriefJson(brief), files };
}

/**
 * listBriefsForStaff of rows read together with the catalogue's plans and the briefs' files
 * (selectBriefFilesOfUser): the same briefs, titles and files, without a read per brief.
 */
export function staffBriefs(
  rows: StaffBriefRow[],
  plans: Array<{ key: string; name: string }>,
  files: Awaited<ReturnType<typeof selectBriefFilesOfUser>>,
): CustomerBrief[] {
  const planNames = new Map(plans.map((plan) => [plan.key, plan.name]));
  return rows.map((row) => {
    const key = row.planKey ?? "";
    const title = row.serviceName ?? `${planNames.get(key) ?? key} plan`;
    const own = files.filter((file) => file.briefId === row.brief.id).map(({ id, fileName, mimeType, fileSize }) => [id, { id, fileName, mimeType, fileSize }]);
    return staffBrief(row, title, Object.fromEntries(own));
  });
}

/* ---------- the one reminder ---------- */

export interface ClaimedReminder {
  id: string;
  userId: string | null;
  purchaseId: string | null;
  subscriptionId: string | null;
}

/**
 * Claims the briefs due their reminder: unanswered, still owed, paid 48 hours ago or more, never
 * reminded. One statement marks them reminded and returns them; a brief claimed by another node
 * (locked, or already marked) is skipped, so each reminder is claimed once across all nodes.
 */
export async function claimBriefReminders(now = new Date(), limit = REMINDER_BATCH): Promise<ClaimedReminder[]> {
  const due = new Date(now.getTime() - BRIEF_REMINDER_DELAY_MS);
  const candidates = db
    .select({ id: b.id })
    .from(b)
    .where(and(isNull(b.submittedAt), isNull(b.remindedAt), lte(b.paidAt, due), stillOwed))
    .orderBy(asc(b.paidAt))
    .limit(limit)
    .for("update", { skipLocked: true });
  return db
    .update(b)
    .set({ remindedAt: now })
    .where(and(inArray(b.id, candidates), isNull(b.remindedAt)))
    .returning({ id: b.id, userId: b.userId, purchaseId: b.purchaseId, subscriptionId: b.subscriptionId });
}

/** Claims and sends the due reminders; a reminder whose e-mail fails is released for the next sweep. Returns how many went out. */
export async function sendBriefReminders(now = new Date()): Promise<number> {
  let sent = 0;
  for (;;) {
    const claimed = await claimBriefReminders(now);
    for (const reminder of claimed) {
      try {
        await sendReminder(reminder);
        sent++;
      } catch (error) {
        logger.error({ err: error, briefId: reminder.id }, "sending a brief reminder failed; it is tried again at the next sweep");
        await db.update(b).set({ remindedAt: null }).where(eq(b.id, reminder.id));
      }
    }
    if (claimed.length < REMINDER_BATCH) return sent;
  }
}

async function sendReminder(reminder: ClaimedReminder) {
  const [row] = await db
    .select({ userId: b.userId, email: schema.users.email, name: schema.users.name, serviceName: schema.services.name, planKey: schema.subscriptions.planId })
    .from(b)
    .innerJoin(schema.users, eq(schema.users.id, b.userId))
    .leftJoin(schema.purchases, eq(schema.purchases.id, b.purchaseId))
    .leftJoin(schema.services, eq(schema.services.id, schema.purchases.serviceId))
    .leftJoin(schema.subscriptions, eq(schema.subscriptions.id, b.subscriptionId))
    .where(eq(b.id, reminder.id))
    .limit(1);
  if (!row) return;
  const title = await titleOf({ ...row, purchaseId: reminder.purchaseId, subscriptionId: reminder.subscriptionId });
  // Each member of the client who answers briefs, once (a client of one: the customer).
  const members = row.userId ? await membersWho(row.userId, "answer") : [];
  for (const person of members.length > 0 ? members : [row]) await sendReminderTo(person, title, reminder);
}

async function sendReminderTo(row: { email: string; name: string }, title: string, reminder: ClaimedReminder) {
  await sendEmail({
    to: row.email,
    category: "brief_needed",
    subject: `We still need your brief for ${title}`,
    heading: "Tell us about your project",
    paragraphs: [
      `Hi ${row.name},`,
      `Thank you for your order of ${title}. Before we can start, we need a few answers from you: the brief takes a few minutes.`,
      "This is our only reminder. If anything is unclear, reply in your dashboard's messages.",
    ],
    action: { label: "Answer the brief", url: `${env.appUrl}${briefHref({ ...reminder, serviceName: null, planKey: null })}` },
  });
}

/** The reminder sweep, every ten minutes, as a job (once across nodes). */
export function startBriefReminderSweep(): () => void {
  return startSweep({
    kind: "brief-reminders",
    everyMs: BRIEF_REMINDER_SWEEP_MS,
    work: sendBriefReminders,
    done: "sent brief reminders",
    failed: "the brief reminder sweep failed",
  });
}
