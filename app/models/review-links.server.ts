import crypto from "node:crypto";
import { and, asc, eq, isNull } from "drizzle-orm";

import { APPROVAL_MESSAGES, REVIEW_LINK_GRACE_MS, type ReviewDecision } from "~/domain/approvals";
import { type Channel } from "~/domain/calendar";
import { roleCovers, type ClientRole } from "~/domain/clients";
import type { Actor } from "~/domain/permissions";
import { db, schema, type Tx } from "~/utils/db.server";
import { env, sessionSecrets } from "~/utils/env.server";
import { HttpError } from "~/utils/http.server";
import { hashToken, randomToken } from "~/utils/tokens.server";

import { reviewPost } from "./posts.server";

/*
 * Review links (decision 293): an e-mailed link to /review/:token lets one member approve or ask for
 * changes on one post without signing in, until the post's review deadline plus 7 days, once. The
 * token is a 256-bit secret signed (HMAC with the session secrets) together with the post, the
 * member and the expiry; only its SHA-256 is stored. Spending it is part of the decision's
 * transaction: a refused decision leaves it usable, a second use finds it spent.
 */

const l = schema.reviewLinks;
const p = schema.posts;
const u = schema.users;
const cm = schema.clientMembers;

function sign(secret: string, secretPart: string, postId: string, memberId: string, expiresAt: Date) {
  return crypto.createHmac("sha256", secret).update(`post-review:${secretPart}:${postId}:${memberId}:${expiresAt.getTime()}`).digest("base64url");
}

export const reviewLinkUrl = (token: string) => `${env.appUrl}/review/${token}`;

/** A new link for one member and one post (in the e-mail's transaction), valid until `reviewBy` plus 7 days. Answers its URL. */
export async function issueReviewLink(tx: Tx, postId: string, memberId: string, reviewBy: Date): Promise<string> {
  const expiresAt = new Date(reviewBy.getTime() + REVIEW_LINK_GRACE_MS);
  const secretPart = randomToken();
  const token = `${secretPart}.${sign(sessionSecrets(env)[0]!, secretPart, postId, memberId, expiresAt)}`;
  await tx.insert(l).values({ tokenHash: hashToken(token), postId, memberId, expiresAt });
  return reviewLinkUrl(token);
}

export type ReviewLinkFailure = "invalid" | "used" | "expired" | "member" | "closed";
const FAILURE_STATUS: Record<ReviewLinkFailure, number> = { invalid: 404, used: 410, expired: 410, member: 403, closed: 409 };
const FAILURE_MESSAGE: Record<ReviewLinkFailure, string> = {
  invalid: APPROVAL_MESSAGES.linkInvalid,
  used: APPROVAL_MESSAGES.linkUsed,
  expired: APPROVAL_MESSAGES.linkExpired,
  member: APPROVAL_MESSAGES.linkMember,
  closed: APPROVAL_MESSAGES.linkClosed,
};

/** The post a review link shows, as its page takes it (decision 309: ids as `id`). */
export interface ReviewLinkPost {
  id: string;
  channel: Channel;
  scheduledAt: string;
  caption: string;
  customerName: string;
  media: { id: string; mimeType: string }[];
}

export type ReviewLinkCheck =
  | { ok: true; linkId: string; member: Actor & { name: string }; post: ReviewLinkPost }
  | { ok: false; failure: ReviewLinkFailure; status: number; message: string };

const refused = (failure: ReviewLinkFailure): ReviewLinkCheck => ({ ok: false, failure, status: FAILURE_STATUS[failure], message: FAILURE_MESSAGE[failure] });

/**
 * What a link opens, or why not: unknown or altered (404), spent or expired (410), a member who
 * left or whose role no longer covers approving (403), a post no longer waiting for the client (409).
 */
export async function checkReviewLink(token: string, now = new Date()): Promise<ReviewLinkCheck> {
  const [secretPart, signature, extra] = token.split(".");
  if (!secretPart || !signature || extra !== undefined || token.length > 200) return refused("invalid");
  const [link] = await db
    .select()
    .from(l)
    .where(eq(l.tokenHash, hashToken(token)))
    .limit(1);
  if (!link) return refused("invalid");
  const given = Buffer.from(signature);
  const signed = sessionSecrets(env).some((secret) => {
    const expected = Buffer.from(sign(secret, secretPart, link.postId, link.memberId, link.expiresAt));
    return expected.length === given.length && crypto.timingSafeEqual(expected, given);
  });
  if (!signed) return refused("invalid");
  if (link.usedAt) return refused("used");
  if (link.expiresAt.getTime() <= now.getTime()) return refused("expired");
  const [[post], [member]] = await Promise.all([
    db
      .select({
        id: p.id,
        customerId: p.customerId,
        channel: p.channel,
        scheduledAt: p.scheduledAt,
        caption: p.caption,
        status: p.status,
        customerName: u.name,
      })
      .from(p)
      .innerJoin(u, eq(u.id, p.customerId))
      .where(eq(p.id, link.postId))
      .limit(1),
    db
      .select({ id: u.id, name: u.name, clientId: cm.clientId, role: cm.role })
      .from(u)
      .innerJoin(cm, and(eq(cm.userId, u.id), isNull(cm.removedAt)))
      .where(and(eq(u.id, link.memberId), isNull(u.disabledAt)))
      .limit(1),
  ]);
  if (!post) return refused("invalid");
  if (!member || member.clientId !== post.customerId || !roleCovers(member.role as ClientRole, "approve")) return refused("member");
  if (post.status !== "in_review") return refused("closed");
  const media = await db
    .select({ id: schema.postMedia.id, mimeType: schema.postMedia.mimeType })
    .from(schema.postMedia)
    .where(eq(schema.postMedia.postId, post.id))
    .orderBy(asc(schema.postMedia.createdAt), asc(schema.postMedia.id));
  return {
    ok: true,
    linkId: link.id,
    member: { id: member.id, name: member.name, role: "user", clientId: member.clientId, clientRole: member.role as ClientRole },
    post: {
      id: post.id,
      channel: post.channel,
      scheduledAt: post.scheduledAt.toISOString(),
      caption: post.caption,
      customerName: post.customerName,
      media,
    },
  };
}

/** The decision made through a link, under that member's name; the link is spent with it. */
export async function decideByLink(token: string, input: { decision: ReviewDecision; comment?: string }): Promise<ReviewLinkCheck> {
  const check = await checkReviewLink(token);
  if (!check.ok) return check;
  try {
    await reviewPost(check.member, check.post.id, input, { linkId: check.linkId });
  } catch (error) {
    if (error instanceof HttpError && error.status === 410) return refused("used");
    if (error instanceof HttpError && (error.status === 409 || error.status === 404)) return refused("closed");
    if (error instanceof HttpError && error.status === 403) return refused("member");
    throw error;
  }
  return check;
}

/** A post's file for the holder of a valid link to that post (the page shows it without a sign-in). */
export async function reviewLinkMedia(token: string, mediaId: string) {
  const check = await checkReviewLink(token);
  if (!check.ok || !check.post.media.some((file) => file.id === mediaId)) return null;
  const [row] = await db.select().from(schema.postMedia).where(eq(schema.postMedia.id, mediaId)).limit(1);
  return row ?? null;
}
