import { and, count, desc, eq, ilike, or, sql } from "drizzle-orm";

import { centsToDollars } from "~/domain/format";
import { gradeAnswers, type GradeAnswers, type Letter } from "~/domain/grader";
import { withWireId } from "~/domain/ids";
import { LEADS_PAGE_SIZE, type GradeJson, type LeadJson } from "~/domain/schemas/grader";
import { db, schema } from "~/utils/db.server";
import { sendEmail } from "~/utils/email.server";
import { env } from "~/utils/env.server";
import { logger } from "~/utils/logger.server";

import { teamRecipients } from "./order-emails.server";
import { listActiveServices, toServiceOffer, type Service } from "./services.server";
import { normalizeEmail } from "./users.server";

/*
 * Grades of the social media grader and the leads they bring. The model itself is
 * app/domain/grader.ts; this file stores its result and sends the report.
 */

export type Grade = typeof schema.grades.$inferSelect;

export const gradeUrl = (id: string) => `${env.appUrl}/grade/${id}`;

/** Grades a visitor's answers and keeps the result; with an e-mail address it is also a lead. */
export async function createGrade(input: { answers: GradeAnswers; email?: string; name?: string }) {
  const result = gradeAnswers(input.answers);
  const grade = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(schema.grades)
      .values({
        answers: input.answers,
        score: result.score,
        overall: result.overall,
        areas: result.areas,
        recommendations: result.recommend.map(({ serviceSlug, reason }) => ({ serviceSlug, reason })),
      })
      .returning();
    if (input.email) await tx.insert(schema.leads).values({ gradeId: row!.id, email: normalizeEmail(input.email), name: input.name ?? null });
    return row!;
  });
  if (input.email) await sendGradeEmails(grade, normalizeEmail(input.email), input.name ?? null);
  return grade;
}

export async function findGrade(id: string): Promise<Grade | null> {
  const [row] = await db.select().from(schema.grades).where(eq(schema.grades.id, id));
  return row ?? null;
}

/** The recommendations as the services are sold today (inactive ones drop out). */
function recommended(grade: Grade, services: Service[]): { service: Service; reason: string }[] {
  const bySlug = new Map(services.map((s) => [s.slug, s]));
  return grade.recommendations.flatMap(({ serviceSlug, reason }) => {
    const service = bySlug.get(serviceSlug);
    return service ? [{ service, reason }] : [];
  });
}

/** The Grade shape of the API (money in dollars). */
export function toGradeJson(grade: Grade, services: Service[]): GradeJson {
  return {
    _id: grade.id,
    overall: grade.overall,
    score: grade.score,
    areas: grade.areas,
    recommendations: recommended(grade, services).map(({ service, reason }) => ({
      service: { _id: service.id, name: service.name, price: centsToDollars(service.priceCents), currency: service.currency },
      reason,
    })),
    createdAt: grade.createdAt.toISOString(),
  };
}

export async function gradeJson(grade: Grade) {
  return toGradeJson(grade, await listActiveServices());
}

/** The report card as its page shows it: the same grade, the advice's services in cents. */
export async function gradeView(grade: Grade) {
  return {
    id: grade.id,
    overall: grade.overall,
    score: grade.score,
    areas: grade.areas,
    recommendations: recommended(grade, await listActiveServices()).map(({ service, reason }) => ({ service: toServiceOffer(service), reason })),
    createdAt: grade.createdAt.toISOString(),
  };
}

/**
 * The report to the visitor (at most one per address a day, claimed atomically so two quick
 * grades cannot both send) and the lead to the team. A mail failure is logged, never lost data:
 * the grade and the lead are already stored.
 */
async function sendGradeEmails(grade: Grade, email: string, name: string | null) {
  try {
    const claimed = await db.execute(sql`
      insert into grade_emails (email, sent_at) values (${email}, now())
      on conflict (email) do update set sent_at = now() where grade_emails.sent_at < now() - interval '1 day'
      returning email`);
    if (rowCount(claimed) > 0) {
      const weakest = [...grade.areas].sort((a, b) => a.score - b.score)[0];
      await sendEmail({
        to: email,
        subject: `Your social media grade: ${grade.overall} (${grade.score}/100)`,
        // Anyone can type any address and name into the grader: the visitor's mail carries no text of theirs.
        heading: `Your social media page scores ${grade.score}/100: ${grade.overall}`,
        paragraphs: [
          ...grade.areas.map((area) => `${area.label}: ${area.grade} (${area.score}/100). ${area.advice}`),
          weakest ? `Start with ${weakest.label.toLowerCase()}: it will move your grade the most.` : "",
        ].filter(Boolean),
        action: { label: "See your report card", url: gradeUrl(grade.id) },
      });
    }
  } catch (error) {
    logger.error({ err: error, gradeId: grade.id }, "e-mailing the grade report failed");
  }
  try {
    const recipients = await teamRecipients();
    if (recipients.length > 0) {
      await sendEmail({
        to: recipients,
        subject: `New lead from the grader: ${email} (${grade.overall})`,
        heading: "A visitor graded their social media page",
        paragraphs: [
          `${name ?? "Someone"} <${email}> scored ${grade.score}/100 (${grade.overall}).`,
          "They got the report by e-mail; follow up within one business day.",
        ],
        action: { label: "Open their report card", url: gradeUrl(grade.id) },
      });
    }
  } catch (error) {
    logger.error({ err: error, gradeId: grade.id }, "e-mailing the new lead to the team failed");
  }
}

function rowCount(result: unknown): number {
  if (Array.isArray(result)) return result.length;
  const rows = (result as { rows?: unknown[] }).rows;
  return rows?.length ?? 0;
}

/** A lead as the staff's list takes it (decision 309): ids as `id`; the API sends it through toLeadJson. */
interface Lead {
  id: string;
  email: string;
  name: string | null;
  grade: { id: string; overall: Letter; score: number };
  createdAt: string;
  customer: { id: string; name: string } | null;
}

/** Leads newest first, with their grade and, when someone with that e-mail bought, the customer. */
export async function listLeads({ search, page = 1, limit = LEADS_PAGE_SIZE }: { search?: string; page?: number; limit?: number }) {
  const pattern = search ? `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const where = pattern ? or(ilike(schema.leads.email, pattern), ilike(schema.leads.name, pattern)) : undefined;
  const customer = and(eq(schema.users.email, schema.leads.email), eq(schema.users.role, "user"));
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({
        id: schema.leads.id,
        email: schema.leads.email,
        name: schema.leads.name,
        createdAt: schema.leads.createdAt,
        gradeId: schema.grades.id,
        overall: schema.grades.overall,
        score: schema.grades.score,
        customerId: schema.users.id,
        customerName: schema.users.name,
      })
      .from(schema.leads)
      .innerJoin(schema.grades, eq(schema.grades.id, schema.leads.gradeId))
      .leftJoin(schema.users, customer)
      .where(where)
      .orderBy(desc(schema.leads.createdAt), desc(schema.leads.id))
      .limit(limit)
      .offset((page - 1) * limit),
    db.select({ total: count() }).from(schema.leads).where(where) as Promise<Array<{ total: number }>>,
  ]);
  const leads: Lead[] = rows.map((r) => ({
    id: r.id,
    email: r.email,
    name: r.name,
    grade: { id: r.gradeId, overall: r.overall, score: r.score },
    createdAt: r.createdAt.toISOString(),
    customer: r.customerId ? { id: r.customerId, name: r.customerName! } : null,
  }));
  return { leads, total: Number(total) };
}

/** The Lead shape of the JSON API (docs/api.md): ids as `_id`. */
export function toLeadJson({ grade, customer, ...lead }: Lead): LeadJson {
  return { ...withWireId(lead), grade: withWireId(grade), customer: customer && withWireId(customer) };
}
