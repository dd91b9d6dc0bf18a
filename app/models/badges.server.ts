import { sql } from "drizzle-orm";

import { queryRows } from "~/utils/db-cursor.server";
import { schema } from "~/utils/db.server";

import { unreadUpTo } from "./notifications.server";

/*
 * The dashboard sidebar's badges for every signed-in page: the unread chat counts beside the bell's
 * count of unread notifications (to BELL_COUNT_CAP), in one statement (each on its own index, as getUnreadCountsForTeam,
 * getUnreadCountForCustomer and bellCount read them), so the layout costs one round trip, not two.
 */

const t = schema.chatThreads;

/** Staff: unread messages per customer (a visitor thread by its own id) and the staff member's unread notifications. */
export async function readStaffBadges(userId: string): Promise<{ unread: { total: number; byCustomer: Record<string, number> }; notifications: number }> {
  const rows = await queryRows<{ key: string | null; count: number }>(sql`
    select coalesce(${t.customerId}, ${t.id})::text as key, ${t.teamUnread} as count from ${t} where ${t.teamUnread} > 0
    union all
    select null, ${unreadUpTo(userId)}`);
  const byCustomer: Record<string, number> = {};
  let total = 0;
  let notifications = 0;
  for (const row of rows) {
    if (row.key === null) {
      notifications = Number(row.count);
      continue;
    }
    byCustomer[row.key] = Number(row.count);
    total += Number(row.count);
  }
  return { unread: { total, byCustomer }, notifications };
}

/** A client of one (the account is its client): its thread's unread count for the customer and the account's unread notifications. */
export async function readCustomerBadges(customerId: string): Promise<{ unread: number; notifications: number }> {
  const [row] = await queryRows<{ unread: number | null; notifications: number }>(sql`
    select (select ${t.customerUnread} from ${t} where ${t.customerId} = ${customerId} limit 1) as unread,
           ${unreadUpTo(customerId)} as notifications`);
  return { unread: Number(row?.unread ?? 0), notifications: Number(row?.notifications ?? 0) };
}
