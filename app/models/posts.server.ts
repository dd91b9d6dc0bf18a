import { and, asc, eq, gte, inArray, lt, ne, sql, type SQL } from "drizzle-orm";

import {
  CHANNEL_LABELS,
  isVisibleToCustomer,
  MAX_MEDIA_BYTES,
  MAX_POST_MEDIA,
  MEDIA_MESSAGES,
  MEDIA_TYPES,
  POST_MESSAGES,
  POST_STATUS_LABELS,
  staffMoveRefusal,
  type Channel,
  type Post,
  type PostComment,
  type PostStatus,
  type StaffStatus,
} from "~/domain/calendar";
import { ROLE_REFUSED } from "~/domain/clients";
import { isUuid, withWireId } from "~/domain/ids";
import { isDeletedAccount } from "~/domain/own-data";
import { can, memberCan, ownerKey, type Actor } from "~/domain/permissions";
import type { CommentJson, PostJson } from "~/domain/schemas/calendar";
import { db, schema } from "~/utils/db.server";
import { forbidden, HttpError, notFound } from "~/utils/http.server";
import { storage } from "~/utils/storage.server";

import { recordAudit } from "./audit.server";
import { decideReview, reviewAfterChange, reviewFieldsOf } from "./post-approvals.server";
import { postEvents } from "./post-events.server";
import { receiveReportUpload, UPLOAD_MESSAGES } from "./report-upload.server";
import { emitPostStatusEvent } from "./webhooks.server";

/*
 * The content calendar's posts (decision 210): staff draft them for a customer, send them for review,
 * the customer approves or asks for changes, both sides comment. Customers never see drafts (a
 * draft answers 404 like a missing post). Every change is announced after its commit on
 * `postEvents`, which the socket layer turns into `postUpdated`.
 */

const p = schema.posts;
const m = schema.postMedia;
const c = schema.postComments;
const u = schema.users;

type PostRow = typeof p.$inferSelect;
export type PostMediaRow = typeof m.$inferSelect;

/** At most this many posts in one answer (a month of every customer fits; decision 210). */
export const POST_LIST_LIMIT = 1000;

export const mediaUrl = (mediaId: string) => `/files/posts/${mediaId}`;

/** Media and comments of these posts, and their customers' names, in three reads. */
async function withDetails(rows: PostRow[]): Promise<Post[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const customerIds = [...new Set(rows.map((r) => r.customerId))];
  const [media, comments, customers, reviews] = await Promise.all([
    db.select({ id: m.id, postId: m.postId, mimeType: m.mimeType }).from(m).where(inArray(m.postId, ids)).orderBy(asc(m.createdAt), asc(m.id)),
    db
      .select({ id: c.id, postId: c.postId, body: c.body, createdAt: c.createdAt, authorId: u.id, authorName: u.name, authorRole: u.role })
      .from(c)
      .leftJoin(u, eq(u.id, c.authorId))
      .where(inArray(c.postId, ids))
      .orderBy(asc(c.createdAt), asc(c.id)),
    db.select({ id: u.id, name: u.name }).from(u).where(inArray(u.id, customerIds)),
    reviewFieldsOf(rows),
  ]);
  const names = new Map(customers.map((row) => [row.id, row.name]));
  const mediaOf = groupBy(media, (row) => row.postId);
  const commentsOf = groupBy(comments, (row) => row.postId);
  return rows.map((row): Post => ({
    id: row.id,
    customer: { id: row.customerId, name: names.get(row.customerId) ?? "" },
    channel: row.channel,
    scheduledAt: row.scheduledAt.toISOString(),
    caption: row.caption,
    media: (mediaOf.get(row.id) ?? []).map((file) => ({ id: file.id, mimeType: file.mimeType, url: mediaUrl(file.id) })),
    status: row.status,
    ...reviews.get(row.id)!,
    comments: (commentsOf.get(row.id) ?? []).map((comment) => ({
      id: comment.id,
      author: comment.authorId ? { id: comment.authorId, name: comment.authorName ?? "", role: comment.authorRole ?? "user" } : null,
      body: comment.body,
      createdAt: comment.createdAt.toISOString(),
    })),
    updatedAt: row.updatedAt.toISOString(),
    permalink: row.permalink,
    publishedAt: row.publishedAt?.toISOString() ?? null,
  }));
}

/** A comment as the API and the socket write it (docs/api.md): `_id` (decision 309). */
export function toCommentJson({ author, ...comment }: PostComment): CommentJson {
  return { ...withWireId(comment), author: author && withWireId(author) };
}

/** A post as the API and the socket's `postUpdated` write it (docs/api.md): `_id` for each id (decision 309). */
export function toPostJson({ customer, media, approvals, comments, ...post }: Post): PostJson {
  return {
    ...withWireId(post),
    customer: withWireId(customer),
    media: media.map((file) => withWireId(file)),
    approvals: approvals.map(({ member, ...approval }) => ({ ...approval, member: withWireId(member) })),
    comments: comments.map(toCommentJson),
  };
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const list = groups.get(key(item));
    if (list) list.push(item);
    else groups.set(key(item), [item]);
  }
  return groups;
}

const toJson = async (row: PostRow) => (await withDetails([row]))[0]!;

export interface PostFilter {
  customerId?: string;
  from?: string;
  to?: string;
  status?: PostStatus;
}

/** Staff: any customer's posts; a customer: their own, never drafts. By time, at most POST_LIST_LIMIT. */
export async function listPosts(actor: Actor, filter: PostFilter = {}): Promise<Post[]> {
  const where: (SQL | undefined)[] = [];
  if (can(actor, "posts:manage")) {
    if (filter.customerId) where.push(eq(p.customerId, filter.customerId));
  } else {
    if (!can(actor, "calendar:own")) return [];
    if (filter.customerId && filter.customerId !== ownerKey(actor)) throw notFound(POST_MESSAGES.customerNotFound);
    if (filter.status === "draft") return [];
    where.push(eq(p.customerId, ownerKey(actor)), ne(p.status, "draft"));
  }
  if (filter.status) where.push(eq(p.status, filter.status));
  if (filter.from) where.push(gte(p.scheduledAt, new Date(filter.from)));
  if (filter.to) where.push(lt(p.scheduledAt, new Date(filter.to)));
  const rows = await db
    .select()
    .from(p)
    .where(and(...where))
    .orderBy(asc(p.scheduledAt), asc(p.id))
    .limit(POST_LIST_LIMIT);
  return withDetails(rows);
}

async function findRow(id: string): Promise<PostRow | null> {
  if (!isUuid(id)) return null;
  const [row] = await db.select().from(p).where(eq(p.id, id)).limit(1);
  return row ?? null;
}

/** The post if the actor may see it: staff any, the customer their own once it is out of draft. Else 404. */
async function rowFor(actor: Actor, id: string): Promise<PostRow> {
  const row = await findRow(id);
  if (!row || !canSee(actor, row)) throw notFound(POST_MESSAGES.notFound);
  return row;
}

const canSee = (actor: Actor, row: { customerId: string; status: PostStatus }) =>
  can(actor, "posts:manage") || (can(actor, "post:read", { ownerId: row.customerId }) && isVisibleToCustomer(row.status));

export async function getPostFor(actor: Actor, id: string): Promise<Post> {
  return toJson(await rowFor(actor, id));
}

/** Announces a change after its commit; the customer hears of it unless it was and stays a draft. */
function announce(post: Post, customerView: Post | null) {
  postEvents.emit("changed", post, customerView);
}

/** A customer account that is still someone's: a deleted one gets no new posts. */
async function customerExists(id: string) {
  const [row] = await db.select({ id: u.id, role: u.role, email: u.email }).from(u).where(eq(u.id, id)).limit(1);
  return !!row && can(row, "area:customer") && !isDeletedAccount(row);
}

export async function createPost(actor: Actor, input: { customerId: string; channel: Channel; scheduledAt: string; caption: string }): Promise<Post> {
  if (!(await customerExists(input.customerId))) throw notFound(POST_MESSAGES.customerNotFound);
  const [row] = await db
    .insert(p)
    .values({ customerId: input.customerId, channel: input.channel, scheduledAt: new Date(input.scheduledAt), caption: input.caption, createdBy: actor.id })
    .returning();
  const post = await toJson(row!);
  announce(post, null);
  return post;
}

export interface PostChange {
  channel?: Channel;
  scheduledAt?: string;
  caption?: string;
  status?: StaffStatus;
}

/** What a staff change did to the status, for the audit log and the review e-mail. */
export interface StatusChange {
  from: PostStatus;
  to: PostStatus;
}

/**
 * Staff edit a post. Editing what the customer approved (channel, time, caption) sends it back to
 * review, whatever status was asked; a published post no longer changes (409).
 */
export async function updatePost(actor: Actor, id: string, change: PostChange): Promise<{ post: Post; statusChange: StatusChange | null }> {
  if (!isUuid(id)) throw notFound(POST_MESSAGES.notFound);
  // The post as it was is the locked row itself: no read before the transaction (every round trip
  // before the commit delays `postUpdated`).
  const result = await db.transaction(async (tx) => {
    const [row] = await tx.select().from(p).where(eq(p.id, id)).for("update");
    if (!row) throw notFound(POST_MESSAGES.notFound);
    const edits = {
      ...(change.channel !== undefined && change.channel !== row.channel ? { channel: change.channel } : {}),
      ...(change.scheduledAt !== undefined && new Date(change.scheduledAt).getTime() !== row.scheduledAt.getTime()
        ? { scheduledAt: new Date(change.scheduledAt) }
        : {}),
      ...(change.caption !== undefined && change.caption !== row.caption ? { caption: change.caption } : {}),
    };
    const edited = Object.keys(edits).length > 0;
    if (row.status === "published" && (edited || (change.status && change.status !== "published")))
      throw new HttpError(409, POST_MESSAGES.published, "CONFLICT");
    let status: PostStatus = change.status ?? row.status;
    if (change.status) {
      const refusal = staffMoveRefusal(row.status, change.status);
      if (refusal) throw new HttpError(409, refusal, "CONFLICT");
    }
    if (edited && status === "approved") status = "in_review";
    const [changed] = await tx
      .update(p)
      .set({
        ...edits,
        status,
        ...(status === "in_review" && row.status !== "in_review" ? { reviewRequestedAt: sql`now()` } : {}),
        updatedAt: sql`now()`,
      })
      .where(eq(p.id, id))
      .returning();
    // Its review round, deadline and revisions (decisions 292–294); `none` approves at once.
    const updated = await reviewAfterChange(tx, actor, row, changed!, { contentEdited: edits.caption !== undefined });
    status = updated.status;
    if (status !== row.status) {
      // What the customer sees changed: an audit entry in the same transaction (contracts: post status changes).
      const [customer] = await tx.select({ name: u.name }).from(u).where(eq(u.id, row.customerId));
      await recordAudit(
        {
          actor,
          action: "post.status",
          target: {
            kind: "post",
            id,
            label: `${CHANNEL_LABELS[updated.channel]} post for ${customer?.name ?? "a customer"}, ${updated.scheduledAt.toISOString().slice(0, 16).replace("T", " ")} UTC`,
          },
          detail: `${POST_STATUS_LABELS[row.status]} → ${POST_STATUS_LABELS[status]}${edited && change.status !== status ? " (edited after approval)" : ""}`,
        },
        tx,
      );
      await emitPostStatusEvent(tx, id, status);
    }
    return { row: updated, before: row, from: row.status };
  });
  const post = await toJson(result.row);
  const visibleNow = isVisibleToCustomer(post.status);
  // A post taken back to draft leaves the customer's calendar: they get it as they last saw it (its
  // media, comments and customer are not changed here), marked draft; never the new draft's words.
  const { before } = result;
  const lastSeen: Post | null = isVisibleToCustomer(before.status)
    ? {
        ...post,
        channel: before.channel,
        scheduledAt: before.scheduledAt.toISOString(),
        caption: before.caption,
        updatedAt: before.updatedAt.toISOString(),
        status: "draft",
      }
    : null;
  announce(post, visibleNow ? post : lastSeen);
  return { post, statusChange: result.from !== post.status ? { from: result.from, to: post.status } : null };
}

/**
 * A review decision: the client's members whose role covers approving, and a second team member for
 * the first stage of `two_step` (decision 292). Only while the post waits for it (409 otherwise);
 * asking for changes needs a comment. `via.linkId`: made through an e-mailed review link, spent here.
 */
export async function reviewPost(
  actor: Actor,
  id: string,
  input: { decision: "approve" | "request_changes"; comment?: string },
  via: { linkId?: string } = {},
): Promise<Post> {
  const row = await findRow(id);
  // The client's own member whose role does not cover approving is told so (403) about any post out of draft.
  if (row && isVisibleToCustomer(row.status) && actor.role === "user" && row.customerId === ownerKey(actor) && !memberCan(actor, "approve"))
    throw forbidden(ROLE_REFUSED);
  if (!row || !canSee(actor, row)) throw notFound(POST_MESSAGES.notFound);
  let told: (() => Promise<void>) | null = null;
  const updated = await db.transaction(async (tx) => {
    // Locked: a staff edit, or another member's decision, at the same moment waits for this one.
    const [locked] = await tx.select().from(p).where(eq(p.id, id)).for("update");
    if (!locked) throw notFound(POST_MESSAGES.notFound);
    const outcome = await decideReview(tx, actor, locked, input, via);
    told = outcome.afterCommit;
    if (input.comment) await tx.insert(c).values({ postId: id, authorId: actor.id, body: input.comment });
    const [moved] = await tx
      .update(p)
      .set({ status: outcome.status, updatedAt: sql`now()` })
      .where(eq(p.id, id))
      .returning();
    if (outcome.status !== locked.status) await emitPostStatusEvent(tx, id, outcome.status);
    return moved!;
  });
  await (told as (() => Promise<void>) | null)?.();
  const post = await toJson(updated);
  announce(post, post);
  return post;
}

/** Tells both sides about a post changed outside this module (the review deadline's sweep). */
export async function announcePostChange(id: string) {
  const row = await findRow(id);
  if (!row) return;
  const post = await toJson(row);
  announce(post, isVisibleToCustomer(post.status) ? post : null);
}

export async function addPostComment(actor: Actor, id: string, body: string): Promise<{ post: Post; comment: PostComment }> {
  const row = await rowFor(actor, id);
  const [inserted] = await db.insert(c).values({ postId: row.id, authorId: actor.id, body }).returning({ id: c.id });
  const [touched] = await db
    .update(p)
    .set({ updatedAt: sql`now()` })
    .where(eq(p.id, row.id))
    .returning();
  const post = await toJson(touched ?? row);
  announce(post, isVisibleToCustomer(post.status) ? post : null);
  return { post, comment: post.comments.find((comment) => comment.id === inserted!.id)! };
}

const MEDIA_RULES = { types: MEDIA_TYPES, keyPrefix: "posts", maxBytes: MAX_MEDIA_BYTES };

/** Staff add an image or video (multipart `file`), streamed to storage with the report rules at 50 MiB. */
export async function addPostMedia(actor: Actor, id: string, request: Request): Promise<Post> {
  const row = await findRow(id);
  if (!row || !can(actor, "posts:manage")) throw notFound(POST_MESSAGES.notFound);
  if (row.status === "published") throw new HttpError(409, POST_MESSAGES.published, "CONFLICT");
  let upload;
  try {
    upload = await receiveReportUpload(request, "file", MEDIA_RULES);
  } catch (error) {
    if (error instanceof HttpError && error.status === 415) throw new HttpError(415, MEDIA_MESSAGES.type, error.code);
    if (error instanceof HttpError && error.status === 413 && error.message === UPLOAD_MESSAGES.size)
      throw new HttpError(413, MEDIA_MESSAGES.size, error.code, error.headers);
    if (error instanceof HttpError && error.code === "FILE_REQUIRED") throw new HttpError(400, MEDIA_MESSAGES.file, error.code);
    throw error;
  }
  const file = upload.file;
  if (!file) throw new HttpError(400, MEDIA_MESSAGES.file, "FILE_REQUIRED");
  try {
    const updated = await db.transaction(async (tx) => {
      const [locked] = await tx.select().from(p).where(eq(p.id, id)).for("update");
      if (!locked) throw notFound(POST_MESSAGES.notFound);
      if (locked.status === "published") throw new HttpError(409, POST_MESSAGES.published, "CONFLICT");
      const [count] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(m)
        .where(eq(m.postId, id));
      if ((count?.n ?? 0) >= MAX_POST_MEDIA) throw new HttpError(409, MEDIA_MESSAGES.tooMany, "CONFLICT");
      await tx.insert(m).values({ postId: id, storageKey: file.key, fileName: file.fileName, mimeType: file.mimeType, fileSize: file.size });
      // New media on an approved post is an edit: it goes back to review.
      const status: PostStatus = locked.status === "approved" ? "in_review" : locked.status;
      const [moved] = await tx
        .update(p)
        .set({ status, updatedAt: sql`now()`, ...(status !== locked.status ? { reviewRequestedAt: sql`now()` } : {}) })
        .where(eq(p.id, id))
        .returning();
      return reviewAfterChange(tx, actor, locked, moved!, { contentEdited: true });
    });
    const post = await toJson(updated);
    announce(post, isVisibleToCustomer(post.status) ? post : null);
    return post;
  } catch (error) {
    await upload.discard();
    throw error;
  }
}

/** A post's file, if the actor may see the post. */
export async function getPostMediaFor(actor: Actor, mediaId: string): Promise<PostMediaRow | null> {
  if (!isUuid(mediaId)) return null;
  const [row] = await db
    .select({ media: m, customerId: p.customerId, status: p.status })
    .from(m)
    .innerJoin(p, eq(p.id, m.postId))
    .where(eq(m.id, mediaId))
    .limit(1);
  if (!row || !canSee(actor, row)) return null;
  return row.media;
}

export const openPostMedia = (media: PostMediaRow) => storage.get(media.storageKey);
