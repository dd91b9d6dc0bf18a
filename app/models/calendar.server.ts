import { and, eq, gte, inArray, lt, ne, sql } from "drizzle-orm";

import { LIVE_SUBSCRIPTION_STATUSES } from "~/domain/billing";
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

/** Customers for the staff calendar's filter: those with posts, and every customer with a live plan. */
export async function calendarCustomers(): Promise<{ _id: string; name: string }[]> {
  const u = schema.users;
  const s = schema.subscriptions;
  const rows = await db
    .select({ id: u.id, name: u.name })
    .from(u)
    .where(
      and(
        eq(u.role, "user"),
        sql`(exists (select 1 from ${p} where ${p.customerId} = ${u.id}) or exists (select 1 from ${s} where ${s.userId} = ${u.id} and ${inArray(s.status, [...LIVE_SUBSCRIPTION_STATUSES])}))`,
      ),
    )
    .orderBy(u.name)
    .limit(2000);
  return rows.map((row) => ({ _id: row.id, name: row.name }));
}
