import { diffWords } from "diff";
import { and, asc, eq, inArray, isNull, max, sql } from "drizzle-orm";

import { APPROVAL_MESSAGES, DEFAULT_APPROVAL, reviewDeadline, type Approval, type ReviewDecision, type ReviewStage } from "~/domain/approvals";
import { CHANNEL_LABELS, isVisibleToCustomer, POST_MESSAGES, type Post, type PostStatus, type ReviewChanges } from "~/domain/calendar";
import { ROLE_REFUSED } from "~/domain/clients";
import { isUuid } from "~/domain/ids";
import { can, ownerKey, type Actor } from "~/domain/permissions";
import type { RevisionJson } from "~/domain/schemas/approvals";
import { db, schema, type Tx } from "~/utils/db.server";
import { HttpError, notFound } from "~/utils/http.server";

import { recordAudit } from "./audit.server";
import { clientIdOf, getClientForStaff } from "./clients.server";
import { notify } from "./notifications.server";

/*
 * Approvals that do not stall (decisions 292–294): a client's approval settings, each post's
 * review round (its deadline, stage and decisions, each under the member's name), and the
 * revisions of its caption and media once it was first sent for review. The post model calls the
 * hooks below inside its own transactions, so a post and its review change together.
 */

const p = schema.posts;
const r = schema.postReviews;
const a = schema.postApprovals;
const v = schema.postRevisions;
const s = schema.clientApprovals;
const u = schema.users;
const cm = schema.clientMembers;

type PostRow = typeof p.$inferSelect;
type ReviewRow = typeof r.$inferSelect;
type Reader = Tx | typeof db;

/** A client's settings, the defaults when staff never set them. */
export async function approvalOf(clientId: string, reader: Reader = db): Promise<Approval> {
  const [row] = await reader.select().from(s).where(eq(s.clientId, clientId)).limit(1);
  return row
    ? {
        mode: row.mode as Approval["mode"],
        approvers: row.approvers as Approval["approvers"],
        onDeadline: row.onDeadline as Approval["onDeadline"],
        reviewHours: row.reviewHours,
      }
    : DEFAULT_APPROVAL;
}

/** `GET /api/clients/:id/approval`: staff, and the client's owners (by the client's id or any member's). */
export async function getApprovalFor(actor: Actor, id: string): Promise<Approval> {
  const clientId = await clientIdOf(id);
  if (!clientId || (actor.role !== "team" && clientId !== ownerKey(actor))) throw notFound(APPROVAL_MESSAGES.clientNotFound);
  if (actor.role !== "team" && (actor.clientRole ?? "owner") !== "owner") throw new HttpError(403, ROLE_REFUSED, "FORBIDDEN");
  return approvalOf(clientId);
}

/** `PUT /api/clients/:id/approval` (staff): the new settings, with an audit entry. Posts already waiting keep their deadline. */
export async function setApproval(actor: Actor, id: string, input: Approval): Promise<Approval> {
  const { client } = await getClientForStaff(id);
  await db.transaction(async (tx) => {
    const values = {
      mode: input.mode,
      approvers: input.approvers,
      onDeadline: input.onDeadline,
      reviewHours: input.reviewHours,
      updatedBy: actor.id,
      updatedAt: new Date(),
    };
    await tx
      .insert(s)
      .values({ clientId: client.id, ...values })
      .onConflictDoUpdate({ target: s.clientId, set: values });
    await recordAudit(
      {
        actor,
        action: "client.approval",
        target: { kind: "client", id: client.id, label: client.name },
        detail: `${input.mode}, ${input.approvers} approvers, ${input.onDeadline} at the deadline, ${input.reviewHours} hours before publishing`,
      },
      tx,
    );
  });
  return approvalOf(client.id);
}

async function reviewRow(tx: Reader, postId: string): Promise<ReviewRow | null> {
  const [row] = await tx.select().from(r).where(eq(r.postId, postId)).limit(1);
  return row ?? null;
}

async function nameOf(tx: Reader, userId: string): Promise<string> {
  const [row] = await tx.select({ name: u.name }).from(u).where(eq(u.id, userId)).limit(1);
  return row?.name ?? "";
}

async function latestRevision(tx: Reader, postId: string): Promise<number | null> {
  const [row] = await tx
    .select({ n: max(v.n) })
    .from(v)
    .where(eq(v.postId, postId));
  return row?.n ?? null;
}

/** The post's caption and media as they are now, as its next revision. */
async function recordRevision(tx: Tx, postId: string, authorId: string) {
  const [post] = await tx.select({ caption: p.caption }).from(p).where(eq(p.id, postId)).limit(1);
  const media = await tx
    .select({ _id: schema.postMedia.id, mimeType: schema.postMedia.mimeType })
    .from(schema.postMedia)
    .where(eq(schema.postMedia.postId, postId))
    .orderBy(asc(schema.postMedia.createdAt), asc(schema.postMedia.id));
  const n = ((await latestRevision(tx, postId)) ?? 0) + 1;
  await tx.insert(v).values({ postId, n, caption: post?.caption ?? "", media, authorId, authorName: await nameOf(tx, authorId) });
}

/**
 * After staff changed a post (in the change's transaction): a post sent for review starts a round
 * (its deadline, its stage; approved at once under `none`), an edit of caption or media once it was
 * first sent is a revision, a new time moves a deadline staff did not set, and a post that stops
 * waiting leaves its stage. Answers the post as it now is.
 */
export async function reviewAfterChange(tx: Tx, actor: Actor, before: PostRow, after: PostRow, change: { contentEdited: boolean }): Promise<PostRow> {
  const review = await reviewRow(tx, after.id);
  const sent = after.status === "in_review" && before.status !== "in_review";
  if (sent) {
    const approval = await approvalOf(after.customerId, tx);
    const reviewBy = review?.reviewBySet && review.reviewBy ? review.reviewBy : reviewDeadline(after.scheduledAt, approval.reviewHours);
    const stage: ReviewStage | null = approval.mode === "none" ? null : approval.mode === "two_step" ? "team" : "client";
    const fields = { stage, reviewBy, sentBy: actor.id, sentAt: new Date(), overdueAt: null };
    if (review)
      await tx
        .update(r)
        .set({ ...fields, round: sql`${r.round} + 1` })
        .where(eq(r.postId, after.id));
    else await tx.insert(r).values({ postId: after.id, round: 1, ...fields });
    // The version first sent is revision 1; later sends record only what was edited.
    if (!review || change.contentEdited) await recordRevision(tx, after.id, actor.id);
    if (approval.mode === "none") {
      const latest = await latestRevision(tx, after.id);
      await tx.update(r).set({ reviewedRevision: latest }).where(eq(r.postId, after.id));
      const [approved] = await tx
        .update(p)
        .set({ status: "approved", updatedAt: sql`now()` })
        .where(eq(p.id, after.id))
        .returning();
      return approved!;
    }
    return after;
  }
  if (!review) return after;
  if (change.contentEdited) await recordRevision(tx, after.id, actor.id);
  if (after.status !== "in_review" && review.stage) await tx.update(r).set({ stage: null }).where(eq(r.postId, after.id));
  else if (after.status === "in_review" && !review.reviewBySet && after.scheduledAt.getTime() !== before.scheduledAt.getTime()) {
    const approval = await approvalOf(after.customerId, tx);
    await tx
      .update(r)
      .set({ reviewBy: reviewDeadline(after.scheduledAt, approval.reviewHours), overdueAt: null })
      .where(eq(r.postId, after.id));
  }
  return after;
}

/** The member ids who must all approve under `approvers:"all"`: every active member with the approver role. */
async function approverRoleMembers(tx: Reader, clientId: string): Promise<string[]> {
  const rows = await tx
    .select({ id: cm.userId })
    .from(cm)
    .innerJoin(u, eq(u.id, cm.userId))
    .where(and(eq(cm.clientId, clientId), eq(cm.role, "approver"), isNull(cm.removedAt), isNull(u.disabledAt)));
  return rows.map((row) => row.id);
}

const postLabel = (post: PostRow, customerName: string) =>
  `${CHANNEL_LABELS[post.channel]} post for ${customerName || "a customer"}, ${post.scheduledAt.toISOString().slice(0, 16).replace("T", " ")} UTC`;

export interface DecisionOutcome {
  status: PostStatus;
  /** The stage the decision was made at. */
  stage: ReviewStage;
  /** Pushes and sends what the decision told people, once its transaction has committed. */
  afterCommit: (() => Promise<void>) | null;
}

/** The team member who sent the post for review hears the client's decision (a `post_decided` notification, in the decision's transaction). */
async function tellSender(tx: Tx, staffId: string | null, post: PostRow, customerName: string, status: PostStatus, by: string, comment?: string) {
  if (!staffId) return null;
  const approved = status === "approved";
  const what = `${CHANNEL_LABELS[post.channel]} post for ${customerName || "a customer"}`;
  const { afterCommit } = await notify(
    [staffId],
    {
      kind: "post_decided",
      title: approved ? `Approved: ${what}` : `Changes requested: ${what}`,
      body: `${by} ${approved ? "approved" : "asked for changes on"} the ${what}.${comment ? ` “${comment}”` : ""}`,
      url: `/dashboard/calendar/posts/${post.id}`,
    },
    tx,
  );
  return afterCommit;
}

/**
 * One decision on a post in review (in the post's locked transaction). Staff decide only the team
 * stage of `two_step`, and not the one who sent it; the client's members whose role covers
 * approving decide the client stage. Under `approvers:"all"` the post is approved once every member
 * with the approver role approved; any request for changes wins. A review link is spent here, so a
 * refused decision leaves it usable.
 */
export async function decideReview(
  tx: Tx,
  actor: Actor,
  post: PostRow,
  input: { decision: ReviewDecision; comment?: string },
  via: { linkId?: string } = {},
): Promise<DecisionOutcome> {
  let review = await reviewRow(tx, post.id);
  if (!review && post.status === "in_review") {
    // Sent for review before approvals had rounds: the client's, from now.
    [review] = await tx.insert(r).values({ postId: post.id, stage: "client" }).returning();
  }
  const stage = post.status === "in_review" ? ((review?.stage ?? null) as ReviewStage | null) : null;
  if (actor.role === "team") {
    if (stage !== "team") throw new HttpError(403, APPROVAL_MESSAGES.clientOnly, "FORBIDDEN");
    if (review?.sentBy === actor.id) throw new HttpError(403, APPROVAL_MESSAGES.notSender, "FORBIDDEN");
  } else if (!can(actor, "post:review", { ownerId: post.customerId })) {
    throw new HttpError(403, ROLE_REFUSED, "FORBIDDEN");
  }
  if (post.status !== "in_review" || !review || !stage) throw new HttpError(409, POST_MESSAGES.reviewStatus, "CONFLICT");
  if (actor.role !== "team" && stage === "team") throw new HttpError(409, APPROVAL_MESSAGES.teamFirst, "CONFLICT");
  if (input.decision === "request_changes" && !input.comment) throw new HttpError(400, POST_MESSAGES.commentRequired, "INVALID_INPUT");
  if (via.linkId) {
    const [spent] = await tx
      .update(schema.reviewLinks)
      .set({ usedAt: new Date() })
      .where(and(eq(schema.reviewLinks.id, via.linkId), isNull(schema.reviewLinks.usedAt)))
      .returning({ id: schema.reviewLinks.id });
    if (!spent) throw new HttpError(410, APPROVAL_MESSAGES.linkUsed, "LINK_USED");
  }
  const memberName = await nameOf(tx, actor.id);
  await tx
    .insert(a)
    .values({ postId: post.id, round: review.round, stage, memberId: actor.id, memberName, decision: input.decision, viaLink: !!via.linkId })
    .onConflictDoUpdate({
      target: [a.postId, a.round, a.stage, a.memberId],
      set: { decision: input.decision, viaLink: !!via.linkId, at: new Date(), memberName },
    });
  const [customer] = await tx.select({ name: u.name }).from(u).where(eq(u.id, post.customerId));
  // Staff's checks and decisions made through an e-mailed link (no session: the log names the member) are entries.
  if (actor.role === "team" || via.linkId)
    await recordAudit(
      {
        actor,
        action: "post.review",
        target: { kind: "post", id: post.id, label: postLabel(post, customer?.name ?? "") },
        detail: `${memberName} ${input.decision === "approve" ? "approved" : "asked for changes"}${stage === "team" ? " (the team's check)" : ""}${via.linkId ? " through an e-mailed review link" : ""}`,
      },
      tx,
    );
  let status: PostStatus = "in_review";
  if (input.decision === "request_changes") status = "changes_requested";
  else if (stage === "team") {
    await tx.update(r).set({ stage: "client" }).where(eq(r.postId, post.id));
    // The client's review e-mail counts from now.
    await tx
      .update(p)
      .set({ reviewRequestedAt: sql`now()` })
      .where(eq(p.id, post.id));
  } else {
    const approval = await approvalOf(post.customerId, tx);
    if (approval.approvers === "any") status = "approved";
    else {
      const [needed, approved] = await Promise.all([
        approverRoleMembers(tx, post.customerId),
        tx
          .select({ memberId: a.memberId })
          .from(a)
          .where(and(eq(a.postId, post.id), eq(a.round, review.round), eq(a.stage, "client"), eq(a.decision, "approve"))),
      ]);
      const given = new Set(approved.map((row) => row.memberId));
      if (needed.every((id) => given.has(id))) status = "approved";
    }
  }
  let afterCommit: (() => Promise<void>) | null = null;
  if (status !== "in_review") {
    await settleReview(tx, post.id);
    afterCommit = await tellSender(tx, review.sentBy ?? post.createdBy, post, customer?.name ?? "", status, memberName, input.comment);
  }
  return { status, stage, afterCommit };
}

/** The review is over (decided, or approved at the deadline): no stage, and the revision it was decided on. */
export async function settleReview(tx: Tx, postId: string) {
  const latest = await latestRevision(tx, postId);
  await tx.update(r).set({ stage: null, reviewedRevision: latest }).where(eq(r.postId, postId));
}

/** A post's review as the screens take it (decision 309: the member by `id`). */
type PostReviewFields = Pick<Post, "reviewBy" | "stage" | "approvals" | "overdue">;

const NO_REVIEW: PostReviewFields = { reviewBy: null, stage: null, approvals: [], overdue: false };

/** The review fields of these posts (their round's decisions, by time), in two reads. */
export async function reviewFieldsOf(posts: readonly { id: string; status: PostStatus }[], now = new Date()): Promise<Map<string, PostReviewFields>> {
  const fields = new Map<string, PostReviewFields>();
  if (posts.length === 0) return fields;
  const ids = posts.map((post) => post.id);
  const [reviews, decisions] = await Promise.all([
    db.select().from(r).where(inArray(r.postId, ids)),
    db
      .select({ postId: a.postId, round: a.round, memberId: a.memberId, memberName: a.memberName, decision: a.decision, at: a.at })
      .from(a)
      .innerJoin(r, and(eq(r.postId, a.postId), eq(r.round, a.round)))
      .where(inArray(a.postId, ids))
      .orderBy(asc(a.at), asc(a.id)),
  ]);
  const statusOf = new Map(posts.map((post) => [post.id, post.status]));
  for (const review of reviews) {
    const waiting = statusOf.get(review.postId) === "in_review" && review.stage !== null;
    fields.set(review.postId, {
      reviewBy: review.reviewBy?.toISOString() ?? null,
      stage: waiting ? (review.stage as ReviewStage) : null,
      approvals: [],
      overdue: waiting && !!review.reviewBy && review.reviewBy.getTime() <= now.getTime(),
    });
  }
  for (const decision of decisions) {
    if (decision.decision === "auto_approve") continue;
    fields.get(decision.postId)?.approvals.push({
      member: { id: decision.memberId ?? "", name: decision.memberName },
      decision: decision.decision as ReviewDecision,
      at: decision.at.toISOString(),
    });
  }
  return new Map(ids.map((id) => [id, fields.get(id) ?? NO_REVIEW]));
}

/** Staff set a post's review deadline by hand (a new time no longer moves it). */
export async function setReviewBy(postId: string, reviewBy: Date) {
  if (!isUuid(postId)) throw notFound(POST_MESSAGES.notFound);
  const [row] = await db.update(r).set({ reviewBy, reviewBySet: true, overdueAt: null }).where(eq(r.postId, postId)).returning({ postId: r.postId });
  if (!row) throw new HttpError(409, "Only a post sent for review has a review deadline.", "CONFLICT");
}

const mediaUrl = (mediaId: string) => `/files/posts/${mediaId}`;

/** `GET /api/posts/:id/revisions`: staff, and the client's members who see the post (never a draft's). Oldest first. */
export async function listRevisions(actor: Actor, postId: string): Promise<RevisionJson[]> {
  if (!isUuid(postId)) throw notFound(POST_MESSAGES.notFound);
  const [post] = await db.select({ customerId: p.customerId, status: p.status }).from(p).where(eq(p.id, postId)).limit(1);
  const visible = post && (can(actor, "posts:manage") || (can(actor, "post:read", { ownerId: post.customerId }) && isVisibleToCustomer(post.status)));
  if (!visible) throw notFound(POST_MESSAGES.notFound);
  const rows = await db.select().from(v).where(eq(v.postId, postId)).orderBy(asc(v.n));
  return rows.map((row) => ({
    n: row.n,
    caption: row.caption,
    media: row.media.map((file) => ({ _id: file._id, mimeType: file.mimeType, url: mediaUrl(file._id) })),
    author: { _id: row.authorId, name: row.authorName },
    createdAt: row.createdAt.toISOString(),
  }));
}

/**
 * For each of these posts edited since its last decision, the word-level difference between the
 * revision that was decided on and the post as it is now (jsdiff's `diffWords`). Three reads.
 */
export async function reviewChangesOf(postIds: readonly string[]): Promise<Record<string, ReviewChanges>> {
  const out: Record<string, ReviewChanges> = {};
  if (postIds.length === 0) return out;
  const reviewed = await db
    .select({ postId: r.postId, n: r.reviewedRevision })
    .from(r)
    .where(and(inArray(r.postId, [...postIds]), sql`${r.reviewedRevision} is not null`));
  if (reviewed.length === 0) return out;
  const ids = reviewed.map((row) => row.postId);
  const [latest, decidedOn, current] = await Promise.all([
    db
      .select({ postId: v.postId, n: max(v.n) })
      .from(v)
      .where(inArray(v.postId, ids))
      .groupBy(v.postId),
    db
      .select({ postId: v.postId, n: v.n, caption: v.caption, media: v.media })
      .from(v)
      .innerJoin(r, and(eq(r.postId, v.postId), eq(r.reviewedRevision, v.n)))
      .where(inArray(v.postId, ids)),
    db.select({ id: p.id, caption: p.caption }).from(p).where(inArray(p.id, ids)),
  ]);
  const latestOf = new Map(latest.map((row) => [row.postId, row.n ?? 0]));
  const captionOf = new Map(current.map((row) => [row.id, row.caption]));
  const mediaNow = await db
    .select({ postId: schema.postMedia.postId, id: schema.postMedia.id })
    .from(schema.postMedia)
    .where(inArray(schema.postMedia.postId, ids));
  for (const base of decidedOn) {
    const currentN = latestOf.get(base.postId) ?? base.n;
    if (currentN <= base.n) continue;
    const now = new Set(mediaNow.filter((row) => row.postId === base.postId).map((row) => row.id));
    const then = new Set(base.media.map((file) => file._id));
    out[base.postId] = {
      reviewed: base.n,
      current: currentN,
      caption: diffWords(base.caption, captionOf.get(base.postId) ?? "").map((part) => ({ value: part.value, added: part.added, removed: part.removed })),
      mediaAdded: [...now].filter((id) => !then.has(id)).length,
      mediaRemoved: [...then].filter((id) => !now.has(id)).length,
    };
  }
  return out;
}
