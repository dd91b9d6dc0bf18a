import { and, eq, gt, isNull, ne } from "drizzle-orm";

import type { Role } from "~/domain/status";
import { db, schema, type Tx } from "~/utils/db.server";
import { sendEmail } from "~/utils/email.server";
import { env } from "~/utils/env.server";
import { logger } from "~/utils/logger.server";
import { hashPassword } from "~/utils/password.server";
import { hashToken, randomToken } from "~/utils/tokens.server";

import { endRecentApiKeys } from "./api-keys.server";
import { endedPasskeysSentence, endRecentPasskeys } from "./passkeys.server";
import { revokeAllSessions } from "./sessions.server";
import { findUserByEmail, type User } from "./users.server";

/**
 * Reset and set-password links: a 256-bit secret of which only the SHA-256 is stored, usable once.
 * A reset link lasts one hour; a new account's first-password link (in the purchase e-mail) seven
 * days (docs/decisions/145). A new link replaces every unused older one, and using a link ends every
 * session and API token of the account; a reset link also ends the passkeys added in the last 24
 * hours (decision 258). Using a link is a first factor only: a first password signs in through the
 * same second step as any sign-in (decision 257).
 */

export type PasswordTokenPurpose = "reset" | "set";
export const PASSWORD_TOKEN_TTL_MS: Record<PasswordTokenPurpose, number> = { reset: 60 * 60 * 1000, set: 7 * 24 * 60 * 60 * 1000 };

export const TOKEN_FAILURES = {
  invalid: "This link is not valid. Please request a new one.",
  used: "This link has already been used or replaced by a newer one. Please request a new one.",
  expired: "This link has expired. Please request a new one.",
} as const;
export type TokenFailure = keyof typeof TOKEN_FAILURES;

type Recipient = Pick<User, "id" | "email" | "name">;

export function passwordLink(token: string) {
  return `${env.appUrl}/reset-password?${new URLSearchParams({ token })}`;
}

/** Issues a fresh link secret; older unused links of the account stop working. */
export async function issuePasswordToken(userId: string, purpose: PasswordTokenPurpose, within?: Tx) {
  const token = randomToken();
  const now = new Date();
  await (within ?? db).transaction(async (tx) => {
    await tx
      .update(schema.passwordTokens)
      .set({ usedAt: now })
      .where(and(eq(schema.passwordTokens.userId, userId), isNull(schema.passwordTokens.usedAt)));
    await tx.insert(schema.passwordTokens).values({
      tokenHash: hashToken(token),
      purpose,
      userId,
      expiresAt: new Date(now.getTime() + PASSWORD_TOKEN_TTL_MS[purpose]),
      createdAt: now,
    });
  });
  return token;
}

/** Why a link cannot be used, or null when it can. Costs one indexed lookup: no password hashing. */
export async function checkPasswordToken(token: string): Promise<TokenFailure | null> {
  const [row] = await db
    .select({ usedAt: schema.passwordTokens.usedAt, expiresAt: schema.passwordTokens.expiresAt })
    .from(schema.passwordTokens)
    .where(eq(schema.passwordTokens.tokenHash, hashToken(token)))
    .limit(1);
  if (!row) return "invalid";
  if (row.usedAt) return "used";
  if (row.expiresAt.getTime() <= Date.now()) return "expired";
  return null;
}

/** What a usable link is for ("set": a new account's first password, or "reset") and whose it is; null when it cannot be used. */
export async function passwordTokenPurpose(token: string): Promise<{ purpose: PasswordTokenPurpose; role: Role } | null> {
  const [row] = await db
    .select({
      purpose: schema.passwordTokens.purpose,
      usedAt: schema.passwordTokens.usedAt,
      expiresAt: schema.passwordTokens.expiresAt,
      role: schema.users.role,
    })
    .from(schema.passwordTokens)
    .innerJoin(schema.users, eq(schema.users.id, schema.passwordTokens.userId))
    .where(eq(schema.passwordTokens.tokenHash, hashToken(token)))
    .limit(1);
  return row && !row.usedAt && row.expiresAt.getTime() > Date.now() ? { purpose: row.purpose, role: row.role } : null;
}

/** `firstPassword`: the account had no password before (a buyer's or an invited colleague's first sign-in). */
export type ResetResult = { ok: true; user: User; firstPassword: boolean } | { ok: false; failure: TokenFailure; message: string };

/**
 * Sets a new password through a link. The token is spent by a conditional update inside the
 * same transaction as the password change, so two concurrent uses cannot both succeed.
 */
export async function resetPasswordWithToken(token: string, password: string): Promise<ResetResult> {
  const failure = await checkPasswordToken(token);
  if (failure) return { ok: false, failure, message: TOKEN_FAILURES[failure] };
  const passwordHash = await hashPassword(password);
  const now = new Date();
  const user = await db.transaction(async (tx) => {
    const [spent] = await tx
      .update(schema.passwordTokens)
      .set({ usedAt: now })
      .where(and(eq(schema.passwordTokens.tokenHash, hashToken(token)), isNull(schema.passwordTokens.usedAt), gt(schema.passwordTokens.expiresAt, now)))
      .returning({ id: schema.passwordTokens.id, userId: schema.passwordTokens.userId, purpose: schema.passwordTokens.purpose });
    if (!spent) return null;
    const [before] = await tx.select({ passwordHash: schema.users.passwordHash }).from(schema.users).where(eq(schema.users.id, spent.userId)).for("update");
    const [updated] = await tx.update(schema.users).set({ passwordHash, updatedAt: now }).where(eq(schema.users.id, spent.userId)).returning();
    await tx
      .update(schema.passwordTokens)
      .set({ usedAt: now })
      .where(and(eq(schema.passwordTokens.userId, spent.userId), ne(schema.passwordTokens.id, spent.id), isNull(schema.passwordTokens.usedAt)));
    return updated ? { ...updated, firstPassword: !before?.passwordHash, purpose: spent.purpose } : null;
  });
  if (!user) return { ok: false, failure: "used", message: TOKEN_FAILURES.used };
  const { firstPassword, purpose, ...account } = user;
  await revokeAllSessions(account.id);
  // Whoever held the mailbox may have added a passkey: a reset ends the day's new ones.
  const endedPasskeys = purpose === "reset" ? await endRecentPasskeys(account.id, "ended by a password reset through an e-mailed link") : [];
  if (purpose === "reset") await endRecentApiKeys(account.id);
  // A first password changes nothing anyone could have been signed in with: no alarm to send, unless passkeys ended.
  if (!firstPassword || endedPasskeys.length > 0) await deliver(passwordChangedEmail(account, endedPasskeys), "password changed");
  return { ok: true, user: account, firstPassword };
}

/**
 * Forgot password: e-mails a reset link when the account exists. Callers run it after answering
 * (startPasswordReset in app/web), so neither the lookup nor the delivery shows in the answer.
 */
export async function requestPasswordReset(email: string) {
  const user = await findUserByEmail(email);
  if (!user || user.disabledAt) return;
  const token = await issuePasswordToken(user.id, "reset");
  await deliver(resetEmail(user, token), "password reset");
}

/** For accounts created without a password (a first purchase, `npm run user:create`). */
export async function sendSetPasswordEmail(user: Recipient) {
  const token = await issuePasswordToken(user.id, "set");
  await deliver(setPasswordEmail(user, token), "set password");
  return passwordLink(token);
}

/**
 * A set-password link for a new account, stored with its e-mail in the caller's transaction (the
 * order that created the account): both exist only if it commits. Answers the e-mail's sending job.
 */
export async function storeSetPasswordEmail(tx: Tx, user: Recipient, orderId: string) {
  const token = await issuePasswordToken(user.id, "set", tx);
  const { jobId } = await sendEmail(setPasswordEmail(user, token), { tx, orderId, userId: user.id });
  return jobId;
}

async function deliver(email: Parameters<typeof sendEmail>[0], kind: string) {
  try {
    await sendEmail(email);
  } catch (error) {
    logger.error({ err: error, kind }, "could not send account e-mail");
  }
}

function resetEmail(user: Recipient, token: string) {
  return {
    to: user.email,
    category: "security" as const,
    subject: "Reset your BrandLift password",
    heading: "Reset your password",
    paragraphs: [
      `Hi ${user.name},`,
      "We received a request to reset the password of your BrandLift account. Use the button below to choose a new one.",
      "The link works once and expires in one hour. If you did not ask for this, you can ignore this e-mail: your password stays the same.",
    ],
    action: { label: "Reset password", url: passwordLink(token) },
  };
}

function setPasswordEmail(user: Recipient, token: string) {
  return {
    to: user.email,
    category: "security" as const,
    subject: "Set your BrandLift password",
    heading: "Set your password",
    paragraphs: [
      `Hi ${user.name},`,
      "Your BrandLift account is ready. Set your password to sign in to your dashboard, where you will find your services, reports and a direct line to our team.",
      "The link works once and expires in 7 days. When it has expired, use 'Forgot your password?' on the sign-in page to get a new one.",
    ],
    action: { label: "Set your password", url: passwordLink(token) },
  };
}

function passwordChangedEmail(user: Recipient, endedPasskeys: string[]) {
  return {
    to: user.email,
    category: "security" as const,
    subject: "Your BrandLift password was changed",
    heading: "Your password was changed",
    paragraphs: [
      `Hi ${user.name},`,
      "The password of your BrandLift account was just changed through an e-mailed link, and every device that was signed in has been signed out.",
      ...(endedPasskeys.length > 0 ? [endedPasskeysSentence(endedPasskeys)] : []),
      "If this was not you, reset your password straight away with 'Forgot your password?' on the sign-in page and let our team know.",
    ],
    action: { label: "Sign in", url: `${env.appUrl}/login` },
  };
}
