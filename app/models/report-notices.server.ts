import { and, eq, sql } from "drizzle-orm";

import { db, schema } from "~/utils/db.server";

/*
 * Report-ready e-mails, grouped like chat replies: one e-mail per customer per quiet period. Nine
 * uploads in a row send one e-mail; the next goes out once the customer has looked at their
 * reports since, or after the quiet period. The state is a read position of the customer's
 * reports feed (`reports:<customer id>`) in chat_read_positions: `notified_at` the last e-mail,
 * `last_read_at` the last visit to a reports list (decision 081).
 */

export const REPORT_NOTICE_QUIET_PERIOD = "24 hours";
const rp = schema.chatReadPositions;
const feed = (customerId: string) => `reports:${customerId}`;

/** True when this upload may e-mail the customer (and records that it does); false inside a quiet period. */
export async function claimReportNotice(customerId: string): Promise<boolean> {
  const claimed = await db
    .insert(rp)
    .values({ userId: customerId, roomId: feed(customerId), lastReadAt: sql`'epoch'`, notifiedAt: sql`clock_timestamp()` })
    .onConflictDoUpdate({
      target: [rp.userId, rp.roomId],
      set: { notifiedAt: sql`clock_timestamp()` },
      setWhere: sql`${rp.notifiedAt} is null or ${rp.notifiedAt} < ${rp.lastReadAt}
        or ${rp.notifiedAt} < clock_timestamp() - ${REPORT_NOTICE_QUIET_PERIOD}::interval`,
    })
    .returning({ userId: rp.userId });
  return claimed.length > 0;
}

/** The e-mail could not be sent: the next upload tries again. */
export async function releaseReportNotice(customerId: string) {
  await db
    .update(rp)
    .set({ notifiedAt: null })
    .where(and(eq(rp.userId, customerId), eq(rp.roomId, feed(customerId))));
}

/** The customer looked at their reports: the next new report e-mails them again. */
export async function markReportsSeen(customerId: string) {
  await db
    .insert(rp)
    .values({ userId: customerId, roomId: feed(customerId), lastReadAt: sql`clock_timestamp()` })
    .onConflictDoUpdate({ target: [rp.userId, rp.roomId], set: { lastReadAt: sql`clock_timestamp()` } });
}
