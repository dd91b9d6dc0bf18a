import { and, eq, inArray, isNull, like, ne, notLike, or, sql } from "drizzle-orm";

import { isLiveStatus } from "~/domain/billing";
import { supportRoomId } from "~/domain/chat";
import { DELETED_NAME, deletedEmail, OWN_DATA_MESSAGES } from "~/domain/own-data";
import { afterResponse } from "~/utils/background.server";
import { db, schema } from "~/utils/db.server";
import { sendEmail } from "~/utils/email.server";
import { HttpError } from "~/utils/http.server";
import { logger } from "~/utils/logger.server";
import { revokeSocketsOfUser } from "~/utils/socket-revocation.server";
import { storage } from "~/utils/storage.server";

import { assertCurrentPassword, getAccount } from "./account.server";
import { findPlan } from "./catalogue.server";
import { unusedPartCents } from "./plan-switch.server";
import { cancelSubscriptionNow } from "./subscriptions-staff.server";
import { listSubscriptionsForUser } from "./subscriptions.server";
import { normalizeEmail } from "./users.server";

/*
 * Deleting a customer account (decision 240). The person goes; the books stay: the
 * user row is kept (orders, purchases, subscriptions and invoices point at it) with its name and
 * e-mail replaced, no password and disabled, and the orders lose the buyer's name and e-mail too.
 * Everything else about the person is removed in one transaction: sessions and API tokens, links,
 * the support thread with its messages, files and notes, direct rooms, reports, the content
 * calendar (posts, their media and comments, the calendar link), grader leads. The
 * stored files are removed after the commit (a row never points at a missing file); sockets end on
 * every node through the revocation channel that logout and disabling use.
 */

export interface DeletedAccount {
  userId: string;
  /** Files that could not be removed from storage (logged; the rows are gone). */
  filesLeft: number;
}

/** The account's rooms: its support thread and the direct rooms it is one of the two members of. */
const roomsOfUser = (userId: string) => {
  const m = schema.chatMessages;
  return or(eq(m.roomId, supportRoomId(userId)), and(like(m.roomId, `%${userId}%`), notLike(m.roomId, "support-%"), notLike(m.roomId, "visitor-%")));
};

/** A live plan on the delete page: what ending it now means (decision 282). */
export interface LivePlanToEnd {
  id: string;
  name: string;
  /** When it would renew (or end, when set to cancel). */
  periodEnd: string | null;
  cancelAtPeriodEnd: boolean;
  /** The unused part of the period, credited by Stripe's proration when the plan ends now. */
  unusedCents: number;
  currency: string;
}

/** The customer's live plans, each with the unused part of its period as of now. */
export async function livePlansToEnd(userId: string, now = new Date()): Promise<LivePlanToEnd[]> {
  const rows = (await listSubscriptionsForUser(userId)).filter((row) => isLiveStatus(row.status));
  const at = Math.floor(now.getTime() / 1000);
  return Promise.all(
    rows.map(async (row) => ({
      id: row.id,
      name: (await findPlan(row.planId))?.name ?? row.planId,
      periodEnd: row.currentPeriodEnd?.toISOString() ?? null,
      cancelAtPeriodEnd: row.cancelAtPeriodEnd,
      unusedCents: unusedPartCents(row, at),
      currency: row.currency,
    })),
  );
}

/**
 * DELETE /api/account and the delete page. Customers only (staff are disabled by the team); the
 * password first (under the sign-in limiter, 400 when wrong). A live plan would go on charging an
 * account nobody can reach: with `endPlans` each one is cancelled now, prorated as Stripe does,
 * before the account goes; without it the deletion is refused with 409.
 */
export async function deleteCustomerAccount(userId: string, password: string, clientIp: string, options: { endPlans?: boolean } = {}): Promise<DeletedAccount> {
  const user = await getAccount(userId);
  if (user.role !== "user") throw new HttpError(403, "Only customer accounts can be deleted here.", "FORBIDDEN");
  await assertCurrentPassword(user, password, clientIp);
  // A member of a client with other members: the person goes, the client's work stays with the others.
  const client = await clientOfMember(userId);
  if (client && client.others > 0) {
    if (client.role === "owner" && client.otherOwners === 0) throw new HttpError(409, OWN_DATA_MESSAGES.lastOwner, "CONFLICT");
    return deleteMemberAccount(user);
  }
  if (options.endPlans) {
    // Before the transaction: Stripe is asked first, and a plan it could not end stops the deletion (502).
    for (const row of (await listSubscriptionsForUser(userId)).filter((plan) => isLiveStatus(plan.status))) {
      await cancelSubscriptionNow(row, { prorate: true });
      logger.info({ userId, subscriptionId: row.id }, "plan ended now: its customer is deleting the account");
    }
  }
  const now = new Date();
  const a = schema.chatAttachments;
  const m = schema.chatMessages;

  const keys = await db.transaction(async (tx) => {
    // The row lock orders this against a plan being bought or renewed at the same moment.
    await tx.select({ id: schema.users.id }).from(schema.users).where(eq(schema.users.id, userId)).for("update");
    const plans = await tx.select({ status: schema.subscriptions.status }).from(schema.subscriptions).where(eq(schema.subscriptions.userId, userId));
    if (plans.some((plan) => isLiveStatus(plan.status))) throw new HttpError(409, OWN_DATA_MESSAGES.activePlan, "SUBSCRIPTION_ACTIVE");

    const roomIds = (await tx.selectDistinct({ roomId: m.roomId }).from(m).where(roomsOfUser(userId))).map((row) => row.roomId);
    const rooms = [...new Set([supportRoomId(userId), ...roomIds])];
    const attachments = await tx
      .delete(a)
      .where(or(eq(a.uploaderId, userId), inArray(a.roomId, rooms)))
      .returning({ key: a.storageKey });
    // Earlier versions of the reports (decision 221) are files too: their keys are taken before the rows go.
    const versions = await tx
      .delete(schema.reportVersions)
      .where(inArray(schema.reportVersions.reportId, tx.select({ id: schema.reports.id }).from(schema.reports).where(eq(schema.reports.userId, userId))))
      .returning({ key: schema.reportVersions.storageKey });
    const reports = [...(await tx.delete(schema.reports).where(eq(schema.reports.userId, userId)).returning({ key: schema.reports.storageKey })), ...versions];
    const postIds = (await tx.select({ id: schema.posts.id }).from(schema.posts).where(eq(schema.posts.customerId, userId))).map((row) => row.id);
    const media =
      postIds.length > 0
        ? await tx.delete(schema.postMedia).where(inArray(schema.postMedia.postId, postIds)).returning({ key: schema.postMedia.storageKey })
        : [];
    await tx.delete(schema.posts).where(eq(schema.posts.customerId, userId));
    // Briefs are the customer's own words; their file answers are chat attachments, removed with the others.
    await tx.delete(schema.briefs).where(eq(schema.briefs.userId, userId));
    await tx.delete(schema.calendarLinks).where(eq(schema.calendarLinks.customerId, userId));
    await tx.delete(schema.postReviewNotices).where(eq(schema.postReviewNotices.customerId, userId));
    await tx.delete(schema.chatThreads).where(eq(schema.chatThreads.customerId, userId));
    await tx.delete(m).where(inArray(m.roomId, rooms));
    await tx.delete(schema.chatReadPositions).where(or(eq(schema.chatReadPositions.userId, userId), inArray(schema.chatReadPositions.roomId, rooms)));
    await tx.delete(schema.threadNotes).where(eq(schema.threadNotes.customerId, userId));
    await tx.delete(schema.sessions).where(eq(schema.sessions.userId, userId));
    await tx.delete(schema.passwordTokens).where(eq(schema.passwordTokens.userId, userId));
    await tx.delete(schema.emailChanges).where(eq(schema.emailChanges.userId, userId));
    // Sign-in devices (their addresses) and every second factor and sign-in secret go too.
    for (const table of [schema.signInDevices, schema.passkeys, schema.totpSecrets, schema.recoveryCodes, schema.magicLinks, schema.signInChallenges]) {
      await tx.delete(table).where(eq(table.userId, userId));
    }
    const email = normalizeEmail(user.email);
    await tx.delete(schema.leads).where(eq(schema.leads.email, email));
    await tx.delete(schema.gradeEmails).where(eq(schema.gradeEmails.email, email));
    // The e-mails written to them (their links and words); one still waiting is not sent.
    await tx.delete(schema.emails).where(or(eq(schema.emails.userId, userId), sql`lower(${schema.emails.recipient}) = ${email}`));

    // The books: orders stay with their amounts, lines, dates and Stripe ids, not with the person.
    const anonymous = deletedEmail(userId);
    const orders = await tx
      .update(schema.orders)
      .set({ name: DELETED_NAME, email: anonymous })
      .where(eq(schema.orders.userId, userId))
      .returning({ id: schema.orders.id });
    if (orders.length > 0) {
      await tx
        .update(schema.orderEmails)
        .set({ recipient: anonymous })
        .where(
          and(
            inArray(
              schema.orderEmails.orderId,
              orders.map((order) => order.id),
            ),
            sql`lower(${schema.orderEmails.recipient}) = ${email}`,
          ),
        );
    }
    await tx
      .update(schema.users)
      .set({ name: DELETED_NAME, email: anonymous, passwordHash: null, profileImage: null, disabledAt: now, welcomedAt: null, updatedAt: now })
      .where(eq(schema.users.id, userId));
    // The client of one goes with its only member.
    await tx.update(schema.clientMembers).set({ removedAt: now }).where(eq(schema.clientMembers.userId, userId));
    return [...attachments, ...reports, ...media].map((row) => row.key);
  });

  revokeSocketsOfUser(userId);
  let filesLeft = 0;
  for (const key of keys) {
    await storage.delete(key).catch((error: unknown) => {
      filesLeft += 1;
      logger.warn({ err: error, key }, "removing a deleted account's file failed");
    });
  }
  logger.info({ userId, files: keys.length, filesLeft }, "customer account deleted");
  afterResponse("account deleted e-mail", () => sendGoodbye(user.email, user.name));
  return { userId, filesLeft };
}

/** The account's client and how many other members (and owners) it has; null without a membership. */
async function clientOfMember(userId: string) {
  const cm = schema.clientMembers;
  const [own] = await db
    .select({ clientId: cm.clientId, role: cm.role })
    .from(cm)
    .where(and(eq(cm.userId, userId), isNull(cm.removedAt)))
    .limit(1);
  if (!own) return null;
  const others = await db
    .select({ role: cm.role })
    .from(cm)
    .where(and(eq(cm.clientId, own.clientId), isNull(cm.removedAt), ne(cm.userId, userId)));
  return { ...own, others: others.length, otherOwners: others.filter((row) => row.role === "owner").length };
}

/**
 * A client's member deletes their account while others stay (decision 283): what the client owns
 * (purchases, plans, reports, posts, the thread) stays with the client; the person goes: their sign-in
 * secrets, sessions, devices, links and e-mails, and their name and address on what they wrote.
 */
async function deleteMemberAccount(user: { id: string; email: string; name: string }): Promise<DeletedAccount> {
  const userId = user.id;
  const now = new Date();
  const email = normalizeEmail(user.email);
  await db.transaction(async (tx) => {
    await tx.select({ id: schema.users.id }).from(schema.users).where(eq(schema.users.id, userId)).for("update");
    await tx.update(schema.clientMembers).set({ removedAt: now }).where(eq(schema.clientMembers.userId, userId));
    for (const table of [
      schema.sessions,
      schema.passwordTokens,
      schema.emailChanges,
      schema.signInDevices,
      schema.passkeys,
      schema.totpSecrets,
      schema.recoveryCodes,
      schema.magicLinks,
      schema.signInChallenges,
      schema.chatReadPositions,
    ]) {
      await tx.delete(table).where(eq(table.userId, userId));
    }
    await tx.delete(schema.calendarLinks).where(eq(schema.calendarLinks.customerId, userId));
    await tx.delete(schema.leads).where(eq(schema.leads.email, email));
    await tx.delete(schema.gradeEmails).where(eq(schema.gradeEmails.email, email));
    await tx.delete(schema.emails).where(or(eq(schema.emails.userId, userId), sql`lower(${schema.emails.recipient}) = ${email}`));
    await tx
      .update(schema.users)
      .set({ name: DELETED_NAME, email: deletedEmail(userId), passwordHash: null, profileImage: null, disabledAt: now, welcomedAt: null, updatedAt: now })
      .where(eq(schema.users.id, userId));
  });
  revokeSocketsOfUser(userId);
  logger.info({ userId }, "client member's account deleted; the client stays with its other members");
  afterResponse("account deleted e-mail", () => sendGoodbye(user.email, user.name));
  return { userId, filesLeft: 0 };
}

async function sendGoodbye(email: string, name: string) {
  try {
    await sendEmail({
      to: email,
      subject: "Your BrandLift account was deleted",
      heading: "Your account was deleted",
      paragraphs: [
        `Hi ${name},`,
        "Your BrandLift account was deleted at your request: your messages, files and reports are gone, and every device was signed out.",
        "Your orders stay on our books, as the law asks, without your name or e-mail address. This is the last e-mail we send you about this account.",
      ],
    });
  } catch (error) {
    logger.error({ err: error }, "could not send the account-deleted e-mail");
  }
}
