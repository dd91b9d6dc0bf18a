import { sql } from "drizzle-orm";

import { queryRows } from "~/utils/db-cursor.server";

/*
 * Revenue, net of every refund, renewals included (docs/decisions/091): an order brings
 * `total - refunded` in the month it was paid. Every payment is an order: services, a plan's
 * sign-up and each renewal (kind "renewal", decision 175), so nothing counts twice and the orders
 * CSV sums to the same figure. It is a monthly rollup that a trigger keeps in the same transaction
 * as every payment and refund (db/migrations/0009_ops_revenue.sql): twelve rows to read.
 */

export interface RevenueMonth {
  /** "2026-11" (UTC). */
  month: string;
  /** Net revenue in cents. */
  revenueCents: number;
  /** Orders paid that month and not fully refunded (services and plan sign-ups). */
  orders: number;
  /** Plan renewals paid that month (their money is in `revenueCents`). */
  renewals: number;
}

/** The first instant of the UTC month `offset` months from the month of `date`. */
function monthStart(date: Date, offset = 0) {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + offset, 1));
}

const monthKey = (date: Date) => `${date.getUTCFullYear()}-${String(date.getUTCMonth() + 1).padStart(2, "0")}`;

/** The last `months` months, oldest first, every month present (zero when nothing was paid). */
export async function revenueByMonth(months = 12, now = new Date()): Promise<RevenueMonth[]> {
  const from = monthStart(now, -(months - 1));
  const to = monthStart(now, 1);
  const [orders, renewals] = await Promise.all([
    queryRows<{ month: string; cents: string | number; orders: number }>(sql`
      select to_char(month, 'YYYY-MM') as month, revenue_cents as cents, orders
      from order_revenue_months
      where month >= ${from.toISOString().slice(0, 10)}::date and month < ${to.toISOString().slice(0, 10)}::date`),
    // The renewals among them (their money is already in the rollup).
    queryRows<{ month: string; count: number }>(sql`
      select to_char(paid_at at time zone 'UTC', 'YYYY-MM') as month, count(*)::int as count
      from orders
      where kind = 'renewal' and status in ('paid', 'partially_refunded') and paid_at >= ${from.toISOString()}::timestamptz and paid_at < ${to.toISOString()}::timestamptz
      group by 1`),
  ]);
  const byMonth = new Map<string, { cents: number; orders: number; renewals: number }>();
  for (let i = 0; i < months; i++) byMonth.set(monthKey(monthStart(from, i)), { cents: 0, orders: 0, renewals: 0 });
  for (const row of orders) {
    const entry = byMonth.get(row.month);
    if (entry) Object.assign(entry, { cents: Number(row.cents), orders: row.orders });
  }
  for (const row of renewals) {
    const entry = byMonth.get(row.month);
    if (entry) Object.assign(entry, { orders: entry.orders - row.count, renewals: row.count });
  }
  return [...byMonth].map(([month, { cents, orders, renewals }]) => ({ month, revenueCents: cents, orders, renewals }));
}

/**
 * All-time revenue in cents, net of refunds, renewals included: the overview's Total Revenue. A
 * scalar subquery (bigint), for a statement that reads the other counts with it.
 */
export const netRevenueCentsSql = sql`(select coalesce(sum(revenue_cents), 0)::bigint from order_revenue_months)`;
