import { and, eq, gt, inArray, isNull, lte, sql } from "drizzle-orm";

import { REMINDER_AHEAD_MS } from "~/domain/approvals";
import { CHANNEL_LABELS, formatPostTime } from "~/domain/calendar";
import { rolesCovering } from "~/domain/clients";
import { db, schema, type Tx } from "~/utils/db.server";
import { logger } from "~/utils/logger.server";
import { startSweep } from "~/utils/sweep.server";

import { notify } from "./notifications.server";
import { approvalOf, settleReview } from "./post-approvals.server";
import { announcePostChange } from "./posts.server";
import { issueReviewLink } from "./review-links.server";
import { emitPostStatusEvent } from "./webhooks.server";

/*
 * Review deadlines (decision 292): a recurring job, every minute, tells the client's approvers of a
 * post that reached them (within a minute), reminds them 24 hours before its `reviewBy` and at it; at it the post is overdue, the client's owners and the
 * team member who sent it are told, and under `onDeadline:"approve"` it is approved (an audit entry
 * says so). Each (post, kind, deadline) is claimed by inserting its post_review_reminders row in the
 * transaction that stores its e-mails: one node wins, however many run the job, and a failed run
 * leaves nothing claimed.
 */

const r = schema.postReviews;
const p = schema.posts;
const u = schema.users;
const cm = schema.clientMembers;
const a = schema.postApprovals;
const reminders = schema.postReviewReminders;

/** "sent": the post reached the client (within a minute); "before": 24 hours ahead; "due": the deadline. */
type Kind = "sent" | "before" | "due";
const BATCH = 100;
const SWEEP_MS = 60 * 1000;

interface Due {
  postId: string;
  reviewBy: Date;
  /** What the claim is keyed on besides the post and kind: the deadline, or for "sent" when it was sent. */
  key: Date;
}

async function duePosts(kind: Kind, now: Date): Promise<Due[]> {
  const until = kind === "before" ? new Date(now.getTime() + REMINDER_AHEAD_MS) : now;
  const key = kind === "sent" ? r.sentAt : r.reviewBy;
  const rows = await db
    .select({ postId: r.postId, reviewBy: r.reviewBy, key })
    .from(r)
    .innerJoin(p, eq(p.id, r.postId))
    .where(
      and(
        kind === "sent" ? sql`${r.stage} = 'client'` : sql`${r.stage} is not null`,
        eq(p.status, "in_review"),
        kind === "sent" ? undefined : lte(r.reviewBy, until),
        kind === "before" ? gt(r.reviewBy, now) : undefined,
        // A post sent inside the last 24 hours before its deadline had its notice: no reminder on top.
        kind === "before" ? sql`${r.sentAt} < ${r.reviewBy} - interval '24 hours'` : undefined,
        sql`not exists (select 1 from ${reminders} where ${reminders.postId} = ${r.postId} and ${reminders.kind} = ${kind} and ${reminders.reviewBy} = ${key})`,
      ),
    )
    .limit(BATCH);
  return rows.flatMap((row) => (row.reviewBy && row.key ? [{ postId: row.postId, reviewBy: row.reviewBy, key: row.key }] : []));
}

/** Inserting the row claims the reminder: false when another run has it (or had it) already. */
async function claim(tx: Tx, kind: Kind, due: Due): Promise<boolean> {
  const rows = await tx.insert(reminders).values({ postId: due.postId, kind, reviewBy: due.key }).onConflictDoNothing().returning({ postId: reminders.postId });
  return rows.length > 0;
}

/** The client's members who may approve and have not decided in this round. */
async function undecidedApprovers(tx: Tx, postId: string, clientId: string, round: number) {
  return tx
    .select({ id: u.id, name: u.name, email: u.email })
    .from(cm)
    .innerJoin(u, eq(u.id, cm.userId))
    .where(
      and(
        eq(cm.clientId, clientId),
        inArray(cm.role, rolesCovering("approve")),
        isNull(cm.removedAt),
        isNull(u.disabledAt),
        sql`not exists (select 1 from ${a} where ${a.postId} = ${postId} and ${a.round} = ${round} and ${a.memberId} = ${u.id})`,
      ),
    );
}

const describe = (post: { channel: keyof typeof CHANNEL_LABELS; scheduledAt: Date }) =>
  `the ${CHANNEL_LABELS[post.channel]} post of ${formatPostTime(post.scheduledAt, "UTC")}`;

type AfterCommit = () => Promise<void>;

const TITLES: Record<Kind, string> = {
  sent: "A post waits for your review",
  before: "A post waits for your review until tomorrow",
  due: "A post's review deadline is now",
};

/**
 * One claimed reminder or deadline, in its transaction: `post_review` notifications to the approvers
 * who have not decided (each with their own review link), at the deadline `post_overdue` ones to the
 * owners and the team member who sent it. Answers whether the post was approved, and what to push
 * and send once committed.
 */
async function handle(tx: Tx, kind: Kind, due: Due): Promise<{ approved: boolean; told: AfterCommit[] }> {
  const told: AfterCommit[] = [];
  const [post] = await tx.select().from(p).where(eq(p.id, due.postId)).for("update");
  const [review] = await tx.select().from(r).where(eq(r.postId, due.postId));
  if (!post || !review || post.status !== "in_review" || !review.stage) return { approved: false, told };
  const deadline = formatPostTime(due.reviewBy, "UTC");
  const about = describe(post);
  const caption = post.caption ? ` “${post.caption.length > 200 ? `${post.caption.slice(0, 199)}…` : post.caption}”` : "";
  if (review.stage === "client") {
    for (const member of await undecidedApprovers(tx, post.id, post.customerId, review.round)) {
      // The notice's address is the member's own review link: it opens the post and decides once, without signing in.
      const link = await issueReviewLink(tx, post.id, member.id, due.reviewBy);
      const notice = await notify(
        [member.id],
        {
          kind: "post_review",
          title: TITLES[kind],
          body:
            kind === "due"
              ? `The review deadline of ${about} is ${deadline}. Please approve it or tell us what to change.${caption}`
              : `Please approve ${about}, or tell us what to change, by ${deadline}.${caption}`,
          url: link,
        },
        tx,
      );
      told.push(notice.afterCommit);
    }
  }
  if (kind !== "due") return { approved: false, told };
  const approval = await approvalOf(post.customerId, tx);
  const autoApprove = approval.onDeadline === "approve" && review.stage === "client";
  await tx.update(r).set({ overdueAt: new Date() }).where(eq(r.postId, post.id));
  if (autoApprove) {
    await tx
      .update(p)
      .set({ status: "approved", updatedAt: sql`now()` })
      .where(eq(p.id, post.id));
    await settleReview(tx, post.id);
    await emitPostStatusEvent(tx, post.id, "approved");
    await tx.insert(schema.auditEntries).values({
      // The system acts: no account, a name that says why.
      actorId: null,
      actorName: "BrandLift (review deadline)",
      action: "post.auto_approve",
      targetKind: "post",
      targetId: post.id,
      targetLabel: `${CHANNEL_LABELS[post.channel]} post, ${post.scheduledAt.toISOString().slice(0, 16).replace("T", " ")} UTC`.slice(0, 300),
      detail: `Nobody decided by its review deadline (${deadline}); the client's settings approve it then`,
    });
  }
  // Overdue: the client's owners and the team member who sent it are told.
  const owners = await tx
    .select({ id: u.id })
    .from(cm)
    .innerJoin(u, eq(u.id, cm.userId))
    .where(and(eq(cm.clientId, post.customerId), eq(cm.role, "owner"), isNull(cm.removedAt)));
  const staffId = review.sentBy ?? post.createdBy;
  const said = autoApprove
    ? `Nobody decided on ${about} by its review deadline (${deadline}), so it was approved automatically, as the approval settings say.`
    : `Nobody decided on ${about} by its review deadline (${deadline}). It is overdue and held until someone approves it or asks for changes.`;
  const title = autoApprove ? "A post was approved at its review deadline" : "A post's review is overdue";
  told.push(
    (
      await notify(
        owners.map((owner) => owner.id),
        { kind: "post_overdue", title, body: said, url: `/dashboard/calendar#post-${post.id}` },
        tx,
      )
    ).afterCommit,
  );
  if (staffId) told.push((await notify([staffId], { kind: "post_overdue", title, body: said, url: `/dashboard/calendar/posts/${post.id}` }, tx)).afterCommit);
  return { approved: autoApprove, told };
}

/** One run: the reminders due 24 hours ahead, then the deadlines reached. Answers what it did. */
export async function runReviewDeadlines(now = new Date()): Promise<{ reminded: number; due: number; approved: number }> {
  const counts = { reminded: 0, due: 0, approved: 0 };
  for (const kind of ["sent", "before", "due"] as const) {
    for (const due of await duePosts(kind, now)) {
      try {
        const done = await db.transaction(async (tx) => {
          if (!(await claim(tx, kind, due))) return null;
          return handle(tx, kind, due);
        });
        if (done === null) continue;
        for (const afterCommit of done.told) await afterCommit();
        counts[kind === "due" ? "due" : "reminded"]++;
        if (done.approved) counts.approved++;
        if (kind === "due") await announcePostChange(due.postId);
      } catch (error) {
        logger.warn({ err: error, postId: due.postId, kind }, "a review reminder failed; the next run tries again");
      }
    }
  }
  return counts;
}

/** The review deadlines' job, every minute, once across nodes. */
export function startReviewDeadlineSweep(): () => void {
  return startSweep({
    kind: "review-deadlines",
    everyMs: SWEEP_MS,
    work: runReviewDeadlines,
    done: "sent review reminders and handled review deadlines",
    failed: "the review deadline sweep failed",
  });
}
