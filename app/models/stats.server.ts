import { and, eq, inArray, isNull, sql } from "drizzle-orm";

import { queryRows } from "~/utils/db-cursor.server";
import { schema } from "~/utils/db.server";

import { PAID_STATUSES } from "./purchases.server";
import { netRevenueCentsSql } from "./revenue.server";

/*
 * The dashboard's overview counts (GET /api/users/count, docs/api.md). Revenue is net of every
 * refund, renewals included (revenue.server.ts, docs/decisions/091).
 */

export interface TeamCounts {
  /** Paid orders net of refunds, plus renewals, in cents. */
  totalRevenueCents: number;
  servicesBooked: number;
  totalActiveUsers: number;
}

export interface CustomerCounts {
  totalServicesBooked: number;
  completed: number;
  inProgress: number;
}

export async function getTeamCounts(): Promise<TeamCounts> {
  const p = schema.purchases;
  const u = schema.users;
  // One statement, one round trip: each count is its own subquery.
  const [row] = await queryRows<{ booked: number; active: number; cents: string | number }>(sql`select
    (select count(*)::int from ${p} where ${inArray(p.status, [...PAID_STATUSES])}) as booked,
    (select count(*)::int from ${u} where ${and(eq(u.role, "user"), isNull(u.disabledAt))}) as active,
    ${netRevenueCentsSql} as cents`);
  return {
    // Paid orders net of their refunds, full or partial, plus renewals: app/models/revenue.server.ts.
    totalRevenueCents: Number(row!.cents),
    servicesBooked: row!.booked,
    totalActiveUsers: row!.active,
  };
}

/**
 * A customer's services, and their monthly plans with them (decision 163: otherwise a plan subscriber reads 0/0/0):
 * a plan that runs (active or past due) is work in progress; a plan that has ended was delivered.
 * A plan that never started (incomplete) is not counted. Decision 163.
 */
export async function getCustomerCounts(userId: string): Promise<CustomerCounts> {
  const p = schema.purchases;
  const plan = schema.subscriptions;
  // One statement, one round trip: the purchases' counts beside the plans' (each one row).
  const [row] = await queryRows<{ completed: number; in_progress: number; running: number; ended: number }>(sql`select * from
    (select count(*) filter (where ${p.status} = 'completed')::int as completed,
            count(*) filter (where ${p.status} = 'in_progress')::int as in_progress
       from ${p} where ${and(eq(p.userId, userId), inArray(p.status, [...PAID_STATUSES]))}) as bought,
    (select count(*) filter (where ${plan.status} in ('active', 'past_due'))::int as running,
            count(*) filter (where ${plan.status} = 'canceled')::int as ended
       from ${plan} where ${eq(plan.userId, userId)}) as plans`);
  const completed = row!.completed + row!.ended;
  const inProgress = row!.in_progress + row!.running;
  return { totalServicesBooked: completed + inProgress, completed, inProgress };
}
