import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { db, schema } from "~/utils/db.server";
import { centsToDollars, PAID_STATUSES } from "./purchases.server";

/*
 * The dashboard's overview counts (contracts §3). Revenue is net of refunds: a refunded purchase
 * leaves the sum, a paid subscription order adds its total. One aggregate query per role.
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
    .select({
      revenueCents: sql<string>`coalesce(sum(${schema.purchases.amountCents}), 0)`,
      booked: sql<number>`count(*)::int`,
    })
    .from(schema.purchases)
    .where(inArray(schema.purchases.status, [...PAID_STATUSES]));
  const [plans] = await db
    .select({ revenueCents: sql<string>`coalesce(sum(${schema.orders.totalCents}), 0)` })
    .from(schema.orders)
    .where(and(eq(schema.orders.kind, "subscription"), eq(schema.orders.status, "paid")));
  const [users] = await db
    .select({ active: sql<number>`count(*)::int` })
    .from(schema.users)
    .where(and(eq(schema.users.role, "user"), isNull(schema.users.disabledAt)));
  return {
    totalRevenue: centsToDollars(Number(purchases.revenueCents) + Number(plans.revenueCents)),
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
