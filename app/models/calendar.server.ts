import { and, eq, gte, inArray, lt, ne, notLike, sql } from "drizzle-orm";

import { LIVE_SUBSCRIPTION_STATUSES } from "~/domain/billing";
import type { CalendarCustomer } from "~/domain/calendar";
import { DELETED_EMAIL_LIKE } from "~/domain/own-data";
import { db, schema } from "~/utils/db.server";

/*
 * The content calendar beside its posts: the plan's monthly quota ("8 of 12 posts this month"),
 * and the customers staff may filter by.
 */

const p = schema.posts;

export interface PostQuota {
  /** Posts of that month out of draft (what the customer has been shown). */
  used: number;
  /** Posts a month the customer's live plans include; null when no plan promises any. */
  included: number | null;
}

/** The quota of one customer for the month [from, to) (the viewer's month, in UTC instants). */
export async function postQuota(customerId: string, from: Date, to: Date): Promise<PostQuota> {
  const s = schema.subscriptions;
  const [[counted], plans] = await Promise.all([
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(p)
      .where(and(eq(p.customerId, customerId), ne(p.status, "draft"), gte(p.scheduledAt, from), lt(p.scheduledAt, to))),
    db
      .select({ posts: schema.plans.postsPerMonth })
      .from(s)
      .innerJoin(schema.plans, eq(schema.plans.key, s.planId))
      .where(and(eq(s.userId, customerId), inArray(s.status, [...LIVE_SUBSCRIPTION_STATUSES]))),
  ]);
  const promised = plans.map((row) => row.posts).filter((n): n is number => n !== null);
  return { used: counted?.n ?? 0, included: promised.length > 0 ? promised.reduce((a, b) => a + b, 0) : null };
}

/**
 * Customers for the staff calendar: every customer account but deleted ones (whose posts went with
 * them), each saying whether a live plan promises posts. Staff may draft for any of them (decision
 * 282): a post can be a one-off service's deliverable, and drafting comes before a plan is bought.
 */
export async function calendarCustomers(): Promise<CalendarCustomer[]> {
  const u = schema.users;
  const s = schema.subscriptions;
  const [rows, planned] = await Promise.all([
    db
      .select({ id: u.id, name: u.name })
      .from(u)
      .where(and(eq(u.role, "user"), notLike(u.email, DELETED_EMAIL_LIKE)))
      .orderBy(u.name)
      .limit(2000),
    db
      .selectDistinct({ userId: s.userId })
      .from(s)
      .where(inArray(s.status, [...LIVE_SUBSCRIPTION_STATUSES])),
  ]);
  const live = new Set(planned.map((row) => row.userId));
  return rows.map((row) => ({ id: row.id, name: row.name, livePlan: live.has(row.id) }));
}
