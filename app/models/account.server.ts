import { and, desc, eq, gt, isNull, sql } from "drizzle-orm";

import { ACCOUNT_MESSAGES, describeDevice } from "~/domain/billing";
import { isUuid } from "~/domain/ids";
import { afterResponse } from "~/utils/background.server";
import { db, schema, type Tx } from "~/utils/db.server";
import { sendEmail } from "~/utils/email.server";
import { env } from "~/utils/env.server";
import { HttpError } from "~/utils/http.server";
import { logger } from "~/utils/logger.server";
import { hashPassword, verifyPassword } from "~/utils/password.server";
import { consume, limits } from "~/utils/rate-limit.server";
import { revokeSocketsOfSession } from "~/utils/socket-revocation.server";
import { isUniqueViolation } from "~/utils/sql.server";
import { hashToken, randomToken } from "~/utils/tokens.server";

import { endRecentApiKeys } from "./api-keys.server";
import { endedPasskeysSentence, endRecentPasskeys } from "./passkeys.server";
import { revokeAllSessions, revokeOtherSessions } from "./sessions.server";
import { findUserByEmail, getUserById, normalizeEmail, type User } from "./users.server";

/*
 * The signed-in person's own account: name, e-mail (changed only through a link sent to the new
 * address), password (the current one first; every other session ends), and their sessions.
 */

export const EMAIL_CHANGE_TTL_MS = 60 * 60 * 1000;
/** How long the old address can undo a change: long enough to notice the e-mail after a holiday weekend. */
export const EMAIL_UNDO_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export const EMAIL_CHANGE_FAILURES = {
  invalid: "This confirmation link is not valid. Please ask for a new one from your account page.",
  used: "This confirmation link has already been used or replaced by a newer one.",
  expired: "This confirmation link has expired. Please ask for a new one from your account page.",
  taken: ACCOUNT_MESSAGES.emailTaken,
} as const;
export type EmailChangeFailure = keyof typeof EMAIL_CHANGE_FAILURES;

export const EMAIL_UNDO_FAILURES = {
  invalid: "This link is not valid. If your e-mail address was changed without you, contact our team.",
  used: "This link has already been used.",
  expired: "This link has expired. If your e-mail address was changed without you, contact our team.",
  taken: "Another account now uses your old e-mail address, so it cannot be restored. Please contact our team.",
} as const;
export type EmailUndoFailure = keyof typeof EMAIL_UNDO_FAILURES;

export function toAccountJson(user: Pick<User, "id" | "name" | "email" | "role" | "createdAt">) {
  return { _id: user.id, id: user.id, name: user.name, email: user.email, role: user.role, createdAt: user.createdAt.toISOString() };
}

export async function getAccount(userId: string): Promise<User> {
  const user = await getUserById(userId);
  if (!user) throw new HttpError(404, "Account not found.");
  return user;
}

export async function updateName(userId: string, name: string): Promise<User> {
  const [user] = await db.update(schema.users).set({ name: name.trim(), updatedAt: new Date() }).where(eq(schema.users.id, userId)).returning();
  if (!user) throw new HttpError(404, "Account not found.");
  return user;
}

/** The current password, checked under the sign-in limiter (shared with the password change). */
export async function assertCurrentPassword(user: Pick<User, "id" | "passwordHash">, password: string, clientIp: string) {
  await consume(limits.signIn, `ip:${clientIp}`, `account-password:${user.id}`);
  if (!(await verifyPassword(password, user.passwordHash))) throw new HttpError(400, ACCOUNT_MESSAGES.wrongPassword, "WRONG_PASSWORD");
}

/**
 * Starts an e-mail change (decision 126): limited per account and per client address, and only
 * with the current password. The answer is the same whether or not another account uses the
 * address: the lookup, and the link to a free address, happen after the answer; a taken address
 * gets nothing. Nothing changes until the link is opened.
 */
export async function requestEmailChange(
  userId: string,
  input: { email: string; currentPassword: string },
  clientIp: string,
): Promise<{ pendingEmail: string }> {
  await consume(limits.emailChange, `account:${userId}`);
  await consume(limits.emailChangeAddress, `ip:${clientIp}`);
  const user = await getAccount(userId);
  await assertCurrentPassword(user, input.currentPassword, clientIp);
  const email = normalizeEmail(input.email);
  if (email === normalizeEmail(user.email)) throw new HttpError(400, ACCOUNT_MESSAGES.emailSame, "INVALID_INPUT");
  afterResponse("e-mail change", () => sendEmailChangeLink(user, email));
  return { pendingEmail: email };
}

async function sendEmailChangeLink(user: Pick<User, "id" | "name" | "email">, email: string) {
  const owner = await findUserByEmail(email);
  if (owner && owner.id !== user.id) return;
  const token = randomToken();
  const now = new Date();
  await db.transaction(async (tx) => {
    // A newer request replaces every pending one (an undo link stays usable).
    await tx
      .update(schema.emailChanges)
      .set({ usedAt: now })
      .where(and(eq(schema.emailChanges.userId, user.id), eq(schema.emailChanges.purpose, "change"), isNull(schema.emailChanges.usedAt)));
    await tx.insert(schema.emailChanges).values({
      userId: user.id,
      purpose: "change",
      newEmail: email,
      tokenHash: hashToken(token),
      expiresAt: new Date(now.getTime() + EMAIL_CHANGE_TTL_MS),
      createdAt: now,
    });
  });
  await deliver({
    to: email,
    subject: "Confirm your new BrandLift e-mail address",
    heading: "Confirm your new e-mail address",
    paragraphs: [
      `Hi ${user.name},`,
      `You asked to use this address for your BrandLift account instead of ${user.email}. Open the link below to confirm; until then nothing changes.`,
      "The link works once and expires in one hour. If you did not ask for this, ignore this e-mail.",
    ],
    action: { label: "Confirm e-mail address", url: `${env.appUrl}/account/confirm-email?${new URLSearchParams({ token })}` },
  });
}

type LinkRow = typeof schema.emailChanges.$inferSelect;
type LinkCheck = { ok: true; row: LinkRow } | { ok: false; failure: "invalid" | "used" | "expired" };

async function findLink(token: string, purpose: LinkRow["purpose"]): Promise<LinkCheck> {
  if (!token || token.length > 200) return { ok: false, failure: "invalid" };
  const [row] = await db
    .select()
    .from(schema.emailChanges)
    .where(and(eq(schema.emailChanges.tokenHash, hashToken(token)), eq(schema.emailChanges.purpose, purpose)))
    .limit(1);
  if (!row) return { ok: false, failure: "invalid" };
  if (row.usedAt) return { ok: false, failure: "used" };
  if (row.expiresAt.getTime() <= Date.now()) return { ok: false, failure: "expired" };
  return { ok: true, row };
}

/**
 * Sets the account's e-mail from a link, once: the link is spent in the same transaction, unused
 * reset links end (they went to the address being replaced), and an address another account took
 * meanwhile changes nothing, the link included (the unique index decides a race). Null: spent or
 * expired meanwhile.
 */
async function applyLink(row: LinkRow, also?: (tx: Tx, before: User, now: Date) => Promise<void>) {
  const now = new Date();
  try {
    return await db.transaction(async (tx) => {
      const [spent] = await tx
        .update(schema.emailChanges)
        .set({ usedAt: now })
        .where(and(eq(schema.emailChanges.id, row.id), isNull(schema.emailChanges.usedAt), gt(schema.emailChanges.expiresAt, now)))
        .returning();
      if (!spent) return null;
      const [before] = await tx.select().from(schema.users).where(eq(schema.users.id, spent.userId));
      if (!before) return null;
      const taken = await findUserByEmail(spent.newEmail, tx);
      // Nothing changes, not even the link: rolled back.
      if (taken && taken.id !== before.id) throw new AddressTaken();
      const [user] = await tx.update(schema.users).set({ email: spent.newEmail, updatedAt: now }).where(eq(schema.users.id, before.id)).returning();
      await tx
        .update(schema.passwordTokens)
        .set({ usedAt: now })
        .where(and(eq(schema.passwordTokens.userId, before.id), isNull(schema.passwordTokens.usedAt)));
      await also?.(tx, before, now);
      return { user: user!, oldEmail: before.email };
    });
  } catch (error) {
    // Two accounts racing for one address: the unique index decides, the loser changes nothing.
    if (error instanceof AddressTaken || isUniqueViolation(error)) return "taken" as const;
    throw error;
  }
}

class AddressTaken extends Error {}

export type EmailChangeResult = { ok: true; user: User; oldEmail: string } | { ok: false; failure: EmailChangeFailure; message: string };

/**
 * Opening the link applies the change (once, within the hour). The old address is told, with a
 * link that restores it (once, within seven days).
 */
export async function confirmEmailChange(token: string): Promise<EmailChangeResult> {
  const fail = (failure: EmailChangeFailure): EmailChangeResult => ({ ok: false, failure, message: EMAIL_CHANGE_FAILURES[failure] });
  const found = await findLink(token, "change");
  if (!found.ok) return fail(found.failure);
  const undoToken = randomToken();
  // The undo link restores the address it is sent to.
  const result = await applyLink(found.row, async (tx, before, now) => {
    await tx.insert(schema.emailChanges).values({
      userId: before.id,
      purpose: "undo",
      newEmail: before.email,
      tokenHash: hashToken(undoToken),
      expiresAt: new Date(now.getTime() + EMAIL_UNDO_TTL_MS),
      createdAt: now,
    });
  });
  if (result === null) return fail("used");
  if (result === "taken") return fail("taken");
  await deliver({
    to: result.oldEmail,
    subject: "Your BrandLift e-mail address was changed",
    heading: "Your e-mail address was changed",
    paragraphs: [
      `Hi ${result.user.name},`,
      `The e-mail address of your BrandLift account is now ${result.user.email}. From now on, sign in and receive our e-mails there.`,
      "If this was not you, open the link below within seven days: it puts this address back and signs out every device. Then choose a new password with 'Forgot your password?' on the sign-in page.",
    ],
    action: { label: "This was not me: restore my address", url: `${env.appUrl}/account/undo-email?${new URLSearchParams({ token: undoToken })}` },
  });
  return { ok: true, ...result };
}

export type EmailUndoResult = { ok: true; email: string } | { ok: false; failure: EmailUndoFailure; message: string };

/** Whether an undo link can still be used (the page asks before it acts: a mail scanner's visit changes nothing). */
export async function checkEmailUndo(token: string): Promise<EmailUndoResult> {
  const found = await findLink(token, "undo");
  return found.ok ? { ok: true, email: found.row.newEmail } : { ok: false, failure: found.failure, message: EMAIL_UNDO_FAILURES[found.failure] };
}

/**
 * "This was not me": the old address comes back (once, within seven days), pending changes and
 * reset links end, every session and API token of the account ends with its sockets, and so do the
 * passkeys added in the last 24 hours (decision 258).
 */
export async function undoEmailChange(token: string): Promise<EmailUndoResult> {
  const fail = (failure: EmailUndoFailure): EmailUndoResult => ({ ok: false, failure, message: EMAIL_UNDO_FAILURES[failure] });
  const found = await findLink(token, "undo");
  if (!found.ok) return fail(found.failure);
  const result = await applyLink(found.row, async (tx, before, now) => {
    await tx
      .update(schema.emailChanges)
      .set({ usedAt: now })
      .where(and(eq(schema.emailChanges.userId, before.id), eq(schema.emailChanges.purpose, "change"), isNull(schema.emailChanges.usedAt)));
  });
  if (result === null) return fail("used");
  if (result === "taken") return fail("taken");
  await revokeAllSessions(result.user.id);
  const endedPasskeys = await endRecentPasskeys(result.user.id, "ended when an e-mail change was undone");
  await endRecentApiKeys(result.user.id);
  await deliver({
    to: result.user.email,
    subject: "Your BrandLift e-mail address was restored",
    heading: "Your e-mail address was restored",
    paragraphs: [
      `Hi ${result.user.name},`,
      `Your BrandLift account uses this address again instead of ${result.oldEmail}, and every device has been signed out.`,
      ...(endedPasskeys.length > 0 ? [endedPasskeysSentence(endedPasskeys)] : []),
      "Choose a new password now with 'Forgot your password?' on the sign-in page, and let our team know if anything else looks wrong.",
    ],
    action: { label: "Choose a new password", url: `${env.appUrl}/forgot-password` },
  });
  return { ok: true, email: result.user.email };
}

/**
 * Changes the password of the signed-in account. Rate-limited like sign-in (10 a minute per
 * address and per account); every other session and API token ends, with their sockets.
 */
export async function changePassword(
  identity: { user: { id: string }; token: string },
  input: { currentPassword: string; newPassword: string },
  clientIp: string,
): Promise<void> {
  const user = await getAccount(identity.user.id);
  await assertCurrentPassword(user, input.currentPassword, clientIp);
  const passwordHash = await hashPassword(input.newPassword);
  await db.update(schema.users).set({ passwordHash, updatedAt: new Date() }).where(eq(schema.users.id, user.id));
  await db
    .update(schema.passwordTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(schema.passwordTokens.userId, user.id), isNull(schema.passwordTokens.usedAt)));
  await revokeOtherSessions(user.id, identity.token);
  await deliver({
    to: user.email,
    subject: "Your BrandLift password was changed",
    heading: "Your password was changed",
    paragraphs: [
      `Hi ${user.name},`,
      "The password of your BrandLift account was just changed from your account page, and every other device has been signed out.",
      "If this was not you, reset your password straight away with 'Forgot your password?' on the sign-in page and let our team know.",
    ],
    action: { label: "Sign in", url: `${env.appUrl}/login` },
  });
}

export interface SessionListItem {
  id: string;
  kind: "cookie" | "bearer";
  device: string;
  lastSeenAt: string;
  createdAt: string;
  current: boolean;
}

/** The account's live sessions (browsers and API tokens), most recently used first. */
export async function listSessions(userId: string, currentSessionId: string | null): Promise<SessionListItem[]> {
  const rows = await db
    .select()
    .from(schema.sessions)
    .where(and(eq(schema.sessions.userId, userId), gt(schema.sessions.expiresAt, sql`now()`)))
    .orderBy(desc(sql`coalesce(${schema.sessions.lastSeenAt}, ${schema.sessions.createdAt})`));
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    device: row.kind === "bearer" ? `API token (${describeDevice(row.userAgent)})` : describeDevice(row.userAgent),
    lastSeenAt: (row.lastSeenAt ?? row.createdAt).toISOString(),
    createdAt: row.createdAt.toISOString(),
    current: row.id === currentSessionId,
  }));
}

/** "Sign out" on one of the account's sessions: it ends with its sockets; someone else's is a 404. */
export async function endSessionById(userId: string, sessionId: string): Promise<void> {
  if (!isUuid(sessionId)) throw new HttpError(404, "Session not found.");
  const ended = await db
    .delete(schema.sessions)
    .where(and(eq(schema.sessions.id, sessionId), eq(schema.sessions.userId, userId)))
    .returning({ id: schema.sessions.id });
  if (ended.length === 0) throw new HttpError(404, "Session not found.");
  revokeSocketsOfSession(sessionId);
}

/** Sessions this node has written "last seen" for, and when: the row says so too once the write lands; this covers the requests in between. */
const touched = new Map<string, number>();
const TOUCH_EVERY_MS = 60_000;

/**
 * Records the device and "last seen" of a session, at most once a minute per session: `seenAt` is
 * what the session's row says (its start until the first record), so a session that started or was
 * recorded in the last minute, by any node, is not written again. The write runs after the answer.
 */
export function touchSession(sessionId: string, userAgent: string | null, seenAt?: Date) {
  const now = Date.now();
  const recorded = Math.max(touched.get(sessionId) ?? 0, seenAt?.getTime() ?? 0);
  if (recorded > now - TOUCH_EVERY_MS) return;
  touched.set(sessionId, now);
  if (touched.size > 10_000) touched.clear();
  afterResponse("session last use", () =>
    db
      .update(schema.sessions)
      .set({ lastSeenAt: new Date(now), ...(userAgent ? { userAgent: userAgent.slice(0, 400) } : {}) })
      .where(eq(schema.sessions.id, sessionId))
      .catch((error: unknown) => logger.warn({ err: error }, "could not record the session's last use")),
  );
}

async function deliver(email: Parameters<typeof sendEmail>[0]) {
  try {
    // E-mail and password changes: security e-mails, always sent (docs/decisions/291).
    await sendEmail({ ...email, category: "security" });
  } catch (error) {
    logger.error({ err: error, subject: email.subject }, "could not send account e-mail");
  }
}
