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

export async function getCustomerCounts(userId: string): Promise<CustomerCounts> {
  const [row] = await db
    .select({
      completed: sql<number>`count(*) filter (where ${schema.purchases.status} = 'completed')::int`,
      inProgress: sql<number>`count(*) filter (where ${schema.purchases.status} = 'in_progress')::int`,
    })
    .from(schema.purchases)
    .where(and(eq(schema.purchases.userId, userId), inArray(schema.purchases.status, [...PAID_STATUSES])));
  return { totalServicesBooked: row.completed + row.inProgress, completed: row.completed, inProgress: row.inProgress };
}
