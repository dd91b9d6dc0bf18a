import { and, desc, eq, gt, isNull, sql } from "drizzle-orm";
import { ACCOUNT_MESSAGES, describeDevice } from "~/domain/billing";
import { isUuid } from "~/domain/ids";
import { db, schema } from "~/utils/db.server";
import { sendEmail } from "~/utils/email.server";
import { env } from "~/utils/env.server";
import { HttpError } from "~/utils/http.server";
import { logger } from "~/utils/logger.server";
import { hashPassword, verifyPassword } from "~/utils/password.server";
import { consume, limits } from "~/utils/rate-limit.server";
import { revokeSocketsOfSession } from "~/utils/socket-revocation.server";
import { hashToken, randomToken } from "~/utils/tokens.server";
import { revokeOtherSessions } from "./sessions.server";
import { findUserByEmail, getUserById, normalizeEmail, type User } from "./users.server";

/*
 * The signed-in person's own account: name, e-mail (changed only through a link sent to the new
 * address), password (the current one first; every other session ends), and their sessions.
 */

export const EMAIL_CHANGE_TTL_MS = 60 * 60 * 1000;

export const EMAIL_CHANGE_FAILURES = {
  invalid: "This confirmation link is not valid. Please ask for a new one from your account page.",
  used: "This confirmation link has already been used or replaced by a newer one.",
  expired: "This confirmation link has expired. Please ask for a new one from your account page.",
  taken: ACCOUNT_MESSAGES.emailTaken,
} as const;
export type EmailChangeFailure = keyof typeof EMAIL_CHANGE_FAILURES;

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

async function assertEmailFree(email: string, userId: string) {
  const owner = await findUserByEmail(email);
  if (owner && owner.id !== userId) throw new HttpError(409, ACCOUNT_MESSAGES.emailTaken, "EMAIL_TAKEN");
}

/**
 * Starts an e-mail change: a single-use, one-hour link goes to the new address, and nothing changes
 * until it is opened. An address another account uses is a 409 and sends nothing.
 */
export async function requestEmailChange(user: Pick<User, "id" | "name" | "email">, newEmail: string): Promise<{ link: string }> {
  const email = normalizeEmail(newEmail);
  if (email === normalizeEmail(user.email)) throw new HttpError(400, ACCOUNT_MESSAGES.emailSame, "INVALID_INPUT");
  await assertEmailFree(email, user.id);
  const token = randomToken();
  const now = new Date();
  await db.transaction(async (tx) => {
    // A newer request replaces every pending one.
    await tx.update(schema.emailChanges).set({ usedAt: now }).where(and(eq(schema.emailChanges.userId, user.id), isNull(schema.emailChanges.usedAt)));
    await tx.insert(schema.emailChanges).values({ userId: user.id, newEmail: email, tokenHash: hashToken(token), expiresAt: new Date(now.getTime() + EMAIL_CHANGE_TTL_MS), createdAt: now });
  });
  const link = `${env.appUrl}/account/confirm-email?${new URLSearchParams({ token })}`;
  await deliver({
    to: email,
    subject: "Confirm your new BrandLift e-mail address",
    heading: "Confirm your new e-mail address",
    paragraphs: [
      `Hi ${user.name},`,
      `You asked to use this address for your BrandLift account instead of ${user.email}. Open the link below to confirm; until then nothing changes.`,
      "The link works once and expires in one hour. If you did not ask for this, ignore this e-mail.",
    ],
    action: { label: "Confirm e-mail address", url: link },
  });
  return { link };
}

export type EmailChangeResult = { ok: true; user: User; oldEmail: string } | { ok: false; failure: EmailChangeFailure; message: string };

/** Opening the link applies the change (once, within the hour); the old address is told. */
export async function confirmEmailChange(token: string): Promise<EmailChangeResult> {
  const fail = (failure: EmailChangeFailure): EmailChangeResult => ({ ok: false, failure, message: EMAIL_CHANGE_FAILURES[failure] });
  if (!token || token.length > 200) return fail("invalid");
  const [row] = await db.select().from(schema.emailChanges).where(eq(schema.emailChanges.tokenHash, hashToken(token))).limit(1);
  if (!row) return fail("invalid");
  if (row.usedAt) return fail("used");
  if (row.expiresAt.getTime() <= Date.now()) return fail("expired");
  const now = new Date();
  try {
    const result = await db.transaction(async (tx) => {
      const [spent] = await tx
        .update(schema.emailChanges)
        .set({ usedAt: now })
        .where(and(eq(schema.emailChanges.id, row.id), isNull(schema.emailChanges.usedAt), gt(schema.emailChanges.expiresAt, now)))
        .returning();
      if (!spent) return null;
      const [before] = await tx.select().from(schema.users).where(eq(schema.users.id, spent.userId));
      if (!before) return null;
      const taken = await findUserByEmail(spent.newEmail, tx);
      if (taken && taken.id !== before.id) return "taken" as const;
      const [user] = await tx.update(schema.users).set({ email: spent.newEmail, updatedAt: now }).where(eq(schema.users.id, before.id)).returning();
      return { user, oldEmail: before.email };
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
        "If this was not you, reply to this e-mail or contact our team straight away.",
      ],
    });
    return { ok: true, ...result };
  } catch (error) {
    // Two accounts racing for one address: the unique index decides, the loser changes nothing.
    if ((error as { code?: string }).code === "23505") return fail("taken");
    throw error;
  }
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
  await consume(limits.signIn, `ip:${clientIp}`, `account-password:${identity.user.id}`);
  const user = await getAccount(identity.user.id);
  if (!(await verifyPassword(input.currentPassword, user.passwordHash))) {
    throw new HttpError(400, ACCOUNT_MESSAGES.wrongPassword, "WRONG_PASSWORD");
  }
  const passwordHash = await hashPassword(input.newPassword);
  await db.update(schema.users).set({ passwordHash, updatedAt: new Date() }).where(eq(schema.users.id, user.id));
  await db.update(schema.passwordTokens).set({ usedAt: new Date() }).where(and(eq(schema.passwordTokens.userId, user.id), isNull(schema.passwordTokens.usedAt)));
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

const touched = new Map<string, number>();
const TOUCH_EVERY_MS = 60_000;

/** Records the device and "last seen" of a session, at most once a minute per session and node. */
export async function touchSession(sessionId: string, userAgent: string | null) {
  const now = Date.now();
  if ((touched.get(sessionId) ?? 0) > now - TOUCH_EVERY_MS) return;
  touched.set(sessionId, now);
  if (touched.size > 10_000) touched.clear();
  await db
    .update(schema.sessions)
    .set({ lastSeenAt: new Date(now), ...(userAgent ? { userAgent: userAgent.slice(0, 400) } : {}) })
    .where(eq(schema.sessions.id, sessionId))
    .catch((error: unknown) => logger.warn({ err: error }, "could not record the session's last use"));
}

async function deliver(email: Parameters<typeof sendEmail>[0]) {
  try {
    await sendEmail(email);
  } catch (error) {
    logger.error({ err: error, subject: email.subject }, "could not send account e-mail");
  }
}
