import { and, asc, eq, isNull, sql } from "drizzle-orm";

import { CHANNEL_LABELS, formatPostTime } from "~/domain/calendar";
import { roleCovers } from "~/domain/clients";
import { queryRows } from "~/utils/db-cursor.server";
import { db, schema } from "~/utils/db.server";
import { sendEmail, sendStoredEmails } from "~/utils/email.server";
import { env } from "~/utils/env.server";
import { logger } from "~/utils/logger.server";
import { startSweep } from "~/utils/sweep.server";

import { membersWho } from "./clients.server";
import { replyToAddress } from "./reply-addresses.server";
import { issueReviewLink } from "./review-links.server";

/*
 * The grouped review e-mail of the content calendar (decision 213): when posts wait for
 * a customer's review, one e-mail lists them all, at most one a day per customer. A post counts
 * once its review was asked REVIEW_SETTLE_MS ago (staff usually send a batch), and only if it went
 * to review after the customer's last e-mail, so a post left waiting does not mail every day.
 * Inserting the (customer, UTC day) row of post_review_notices claims the day's e-mail: its primary
 * key lets one node win, however many sweep at once. It goes to each member who may approve, with
 * a review link per post of their own (decision 293); posts at the team's check are left out.
 */

const p = schema.posts;
const n = schema.postReviewNotices;
const u = schema.users;

const REVIEW_SETTLE_MS = 10 * 60 * 1000;
const REVIEW_SWEEP_MS = 5 * 60 * 1000;
const NOTICE_BATCH = 50;
/** The e-mail names this many posts and counts the rest. */
const LISTED = 10;

const utcDay = (at: Date) => at.toISOString().slice(0, 10);

/** Claims today's e-mail for customers with posts newly waiting for review; returns their ids. */
export async function claimReviewNotices(now = new Date(), limit = NOTICE_BATCH): Promise<string[]> {
  const settled = new Date(now.getTime() - REVIEW_SETTLE_MS);
  const rows = await queryRows<{ customer_id: string }>(sql`
    insert into ${n} (customer_id, day, created_at)
    select ${p.customerId}, ${utcDay(now)}::date, ${now.toISOString()}::timestamptz
    from ${p}
    join ${u} on ${u.id} = ${p.customerId} and ${u.disabledAt} is null
    where ${p.status} = 'in_review'
      and not exists (select 1 from ${schema.postReviews} where ${schema.postReviews.postId} = ${p.id} and ${schema.postReviews.stage} = 'team')
      and ${p.reviewRequestedAt} <= ${settled.toISOString()}::timestamptz
      and not exists (select 1 from ${n} as today where today.customer_id = ${p.customerId} and today.day = ${utcDay(now)}::date)
      and ${p.reviewRequestedAt} > coalesce(
        (select max(last.created_at) from ${n} as last where last.customer_id = ${p.customerId}),
        '-infinity'::timestamptz
      )
    group by ${p.customerId}
    limit ${limit}
    on conflict do nothing
    returning customer_id`);
  return rows.map((row) => row.customer_id);
}

/** Claims and sends the due review e-mails; one whose sending fails is released for the next sweep. Returns how many went out. */
export async function sendReviewNotices(now = new Date()): Promise<number> {
  let sent = 0;
  for (;;) {
    const claimed = await claimReviewNotices(now);
    for (const customerId of claimed) {
      const day = utcDay(now);
      try {
        await sendNotice(customerId);
        await db
          .update(n)
          .set({ sentAt: new Date() })
          .where(and(eq(n.customerId, customerId), eq(n.day, day)));
        sent++;
      } catch (error) {
        logger.error({ err: error, customerId }, "sending a review e-mail failed; it is tried again at the next sweep");
        await db.delete(n).where(and(eq(n.customerId, customerId), eq(n.day, day), isNull(n.sentAt)));
      }
    }
    if (claimed.length < NOTICE_BATCH) return sent;
  }
}

/**
 * The e-mail to each member whose role covers approving (decision 293), each once, with a review
 * link per post that is theirs alone; stored in one transaction with the links.
 */
async function sendNotice(customerId: string) {
  const approvers = await membersWho(customerId, "approve");
  const waiting = await db
    .select({ id: p.id, channel: p.channel, scheduledAt: p.scheduledAt, caption: p.caption, reviewBy: schema.postReviews.reviewBy })
    .from(p)
    .leftJoin(schema.postReviews, eq(schema.postReviews.postId, p.id))
    .where(and(eq(p.customerId, customerId), eq(p.status, "in_review"), sql`coalesce(${schema.postReviews.stage}, 'client') = 'client'`))
    .orderBy(asc(p.scheduledAt));
  if (approvers.length === 0 || waiting.length === 0) return;
  const count = waiting.length === 1 ? "1 post waits" : `${waiting.length} posts wait`;
  const stored = await db.transaction(async (tx) => {
    const jobIds: string[] = [];
    for (const member of approvers) {
      const lines: string[] = [];
      for (const post of waiting.slice(0, LISTED)) {
        const caption = post.caption.length > 80 ? `${post.caption.slice(0, 79)}…` : post.caption;
        const link = await issueReviewLink(tx, post.id, member.id, post.reviewBy ?? post.scheduledAt);
        const by = post.reviewBy ? ` (please decide by ${formatPostTime(post.reviewBy, "UTC")})` : "";
        lines.push(
          `${CHANNEL_LABELS[post.channel]}, ${formatPostTime(post.scheduledAt, "UTC")}${caption ? `: “${caption}”` : ""}${by}. Approve or ask for changes: ${link}`,
        );
      }
      if (waiting.length > LISTED) lines.push(`and ${waiting.length - LISTED} more.`);
      // A reply to it lands in the client's thread when the member may write there (docs/integrations.md).
      const replyTo = roleCovers(member.role, "chat") ? replyToAddress(member.id, customerId) : undefined;
      const { jobId } = await sendEmail(
        {
          to: member.email,
          ...(replyTo ? { replyTo } : {}),
          // A post_review e-mail: its recipient's choice for the kind applies, with a one-click unsubscribe.
          category: "post_review",
          subject: `${count} for your review`,
          heading: `${count} for your review`,
          paragraphs: [
            `Hi ${member.name},`,
            "Our team has prepared posts for your content calendar. Approve each one, or tell us what to change (each link works once, without signing in):",
            ...lines,
            "We send at most one of these e-mails a day.",
          ],
          action: { label: "Review your posts", url: `${env.appUrl}/dashboard/calendar` },
        },
        { tx, userId: member.id },
      );
      jobIds.push(jobId);
    }
    return jobIds;
  });
  await sendStoredEmails(stored);
}

/** The review e-mail sweep, every five minutes, as a job (once across nodes). */
export function startReviewNoticeSweep(): () => void {
  return startSweep({
    kind: "review-notices",
    everyMs: REVIEW_SWEEP_MS,
    work: sendReviewNotices,
    done: "sent review e-mails",
    failed: "the review e-mail sweep failed",
  });
}
