import { and, eq, inArray, isNull, sql } from "drizzle-orm";

import { centsToDollars } from "~/domain/format";
import { db, schema } from "~/utils/db.server";

import { PAID_STATUSES } from "./purchases.server";
import { netRevenueCents } from "./revenue.server";

/*
 * The dashboard's overview counts (GET /api/users/count, docs/api.md). Revenue is net of every
 * refund, renewals included (revenue.server.ts, docs/decisions/091).
 */

export interface TeamCounts {
  totalRevenue: number;
  servicesBooked: number;
  totalActiveUsers: number;
}

export interface CustomerCounts {
  totalServicesBooked: number;
  completed: number;
  inProgress: number;
}

export async function getTeamCounts(): Promise<TeamCounts> {
  const [purchases] = await db
    .select({ booked: sql<number>`count(*)::int` })
    .from(schema.purchases)
    .where(inArray(schema.purchases.status, [...PAID_STATUSES]));
  const [users] = await db
    .select({ active: sql<number>`count(*)::int` })
    .from(schema.users)
    .where(and(eq(schema.users.role, "user"), isNull(schema.users.disabledAt)));
  return {
    // Paid orders net of their refunds, full or partial, plus renewals: app/models/revenue.server.ts.
    totalRevenue: centsToDollars(await netRevenueCents()),
    servicesBooked: purchases.booked,
    totalActiveUsers: users.active,
  };
}

/**
 * A customer's services, and their monthly plans with them (issue 20.14: a plan subscriber read 0/0/0):
 * a plan that runs (active or past due) is work in progress; a plan that has ended was delivered.
 * A plan that never started (incomplete) is not counted. Decision 163.
 */
export async function getCustomerCounts(userId: string): Promise<CustomerCounts> {
  const [row] = await db
    .select({
      completed: sql<number>`count(*) filter (where ${schema.purchases.status} = 'completed')::int`,
      inProgress: sql<number>`count(*) filter (where ${schema.purchases.status} = 'in_progress')::int`,
    })
    .from(schema.purchases)
    .where(and(eq(schema.purchases.userId, userId), inArray(schema.purchases.status, [...PAID_STATUSES])));
  const [plans] = await db
    .select({
      running: sql<number>`count(*) filter (where ${schema.subscriptions.status} in ('active', 'past_due'))::int`,
      ended: sql<number>`count(*) filter (where ${schema.subscriptions.status} = 'canceled')::int`,
    })
    .from(schema.subscriptions)
    .where(eq(schema.subscriptions.userId, userId));
  const completed = row.completed + plans.ended;
  const inProgress = row.inProgress + plans.running;
  return { totalServicesBooked: completed + inProgress, completed, inProgress };
}
