import crypto from "node:crypto";
import { generateTOTP, getTOTPAuthUri, verifyTOTP } from "@epic-web/totp";
import { and, eq, gt, isNotNull, isNull, sql } from "drizzle-orm";
import QRCode from "qrcode";

import { recordOwnSignInChange } from "~/models/audit.server";
import type { User } from "~/models/users.server";
import { db, schema, type Db, type Tx } from "~/utils/db.server";
import { HttpError } from "~/utils/http.server";
import { hashToken } from "~/utils/tokens.server";

/*
 * Two-factor sign-in with an authenticator app (TOTP, RFC 6238: SHA-1, 6 digits, 30 seconds, one
 * step either side) and ten single-use recovery codes. A secret is pending until a first code
 * verifies it; each accepted code moves `last_step` forward, so the same code (or an older one)
 * is never taken twice (decision 231).
 */

export const TOTP_PERIOD = 30;
const TOTP = { period: TOTP_PERIOD, digits: 6, algorithm: "SHA-1" } as const;
export const RECOVERY_CODE_COUNT = 10;
const ISSUER = "BrandLift";

export const TWO_FACTOR_MESSAGES = {
  wrongCode: "That code is not right. Check your authenticator app and try again.",
  alreadyOn: "Two-factor sign-in is already on.",
  notStarted: "Start the set-up again: there is no pending authenticator secret.",
  notOn: "Two-factor sign-in is not on.",
} as const;

const wrongCode = () => new HttpError(400, TWO_FACTOR_MESSAGES.wrongCode, "INVALID_CODE");

/** Whether a sign-in of this account asks for an authenticator code. */
export async function isTwoFactorOn(userId: string): Promise<boolean> {
  const [row] = await db
    .select({ userId: schema.totpSecrets.userId })
    .from(schema.totpSecrets)
    .where(and(eq(schema.totpSecrets.userId, userId), isNotNull(schema.totpSecrets.enabledAt)))
    .limit(1);
  return !!row;
}

/** The second factors an account has: an authenticator app that is on, and passkeys. */
export interface TwoFactorMethods {
  totp: boolean;
  passkey: boolean;
}

/**
 * What a sign-in of this account asks for after its first factor (decision 257): the same two
 * factors the session lookup's `hasTwoFactorMethod` counts, so TEAM_2FA=required and the sign-in agree.
 */
export async function twoFactorMethodsOf(userId: string): Promise<TwoFactorMethods> {
  const [totp, [passkey]] = await Promise.all([
    isTwoFactorOn(userId),
    db.select({ id: schema.passkeys.id }).from(schema.passkeys).where(eq(schema.passkeys.userId, userId)).limit(1),
  ]);
  return { totp, passkey: !!passkey };
}

export interface TwoFactorStatus {
  enabled: boolean;
  enabledAt: Date | null;
  recoveryCodesLeft: number;
}

export async function twoFactorStatus(userId: string): Promise<TwoFactorStatus> {
  const [[totp], [codes]] = await Promise.all([
    db.select({ enabledAt: schema.totpSecrets.enabledAt }).from(schema.totpSecrets).where(eq(schema.totpSecrets.userId, userId)),
    db
      .select({ left: sql<number>`count(*)::int` })
      .from(schema.recoveryCodes)
      .where(and(eq(schema.recoveryCodes.userId, userId), isNull(schema.recoveryCodes.usedAt))),
  ]);
  const enabledAt = totp?.enabledAt ?? null;
  return { enabled: !!enabledAt, enabledAt, recoveryCodesLeft: enabledAt ? (codes?.left ?? 0) : 0 };
}

export function otpauthUrl(secret: string, accountName: string) {
  return getTOTPAuthUri({ ...TOTP, secret, accountName, issuer: ISSUER });
}

/** The QR code of an otpauth:// URL as an SVG document, drawn on the server. */
export function qrCodeSvg(url: string): Promise<string> {
  return QRCode.toString(url, { type: "svg", errorCorrectionLevel: "M", margin: 1 });
}

/** A new pending secret (replacing any earlier pending one); refused while two-factor is on. */
export async function startTwoFactorSetup(user: Pick<User, "id" | "email">): Promise<{ secret: string; otpauthUrl: string }> {
  if (await isTwoFactorOn(user.id)) throw new HttpError(409, TWO_FACTOR_MESSAGES.alreadyOn, "TWO_FACTOR_ALREADY_ON");
  const { secret } = await generateTOTP(TOTP);
  await db
    .insert(schema.totpSecrets)
    .values({ userId: user.id, secret })
    .onConflictDoUpdate({ target: schema.totpSecrets.userId, set: { secret, enabledAt: null, lastStep: null, createdAt: new Date() } });
  return { secret, otpauthUrl: otpauthUrl(secret, user.email) };
}

/** The pending secret being set up, if any (the set-up page shows it again after a wrong code). */
export async function pendingTotpSecret(userId: string): Promise<string | null> {
  const [row] = await db
    .select({ secret: schema.totpSecrets.secret })
    .from(schema.totpSecrets)
    .where(and(eq(schema.totpSecrets.userId, userId), isNull(schema.totpSecrets.enabledAt)));
  return row?.secret ?? null;
}

const normalizeCode = (code: string) => code.replace(/[\s-]/g, "").toLowerCase();

/** The time step a code is valid for, or null: checks the current step and one either side. */
async function acceptedStep(secret: string, code: string, now = Date.now()): Promise<number | null> {
  const otp = normalizeCode(code);
  if (!/^\d{6}$/.test(otp)) return null;
  const result = await verifyTOTP({ ...TOTP, otp, secret, window: 1 });
  return result ? Math.floor(now / 1000 / TOTP_PERIOD) + result.delta : null;
}

/**
 * Takes a TOTP code once: the step moves forward in one conditional update, so two requests with
 * the same code (or a code older than the last one taken) cannot both pass.
 */
async function takeTotpCode(userId: string, secret: string, code: string, activate: boolean, tx: Db | Tx = db): Promise<boolean> {
  const step = await acceptedStep(secret, code);
  if (step === null) return false;
  const taken = await tx
    .update(schema.totpSecrets)
    .set({ lastStep: step, ...(activate ? { enabledAt: new Date() } : {}) })
    .where(
      and(
        eq(schema.totpSecrets.userId, userId),
        eq(schema.totpSecrets.secret, secret),
        activate ? isNull(schema.totpSecrets.enabledAt) : isNotNull(schema.totpSecrets.enabledAt),
        sql`(${schema.totpSecrets.lastStep} is null or ${schema.totpSecrets.lastStep} < ${step})`,
      ),
    )
    .returning({ userId: schema.totpSecrets.userId });
  return taken.length === 1;
}

function newRecoveryCode() {
  // 10 characters of base32 (50 bits), shown as two groups of five.
  const alphabet = "abcdefghjkmnpqrstuvwxyz23456789";
  const chars = Array.from(crypto.randomBytes(10), (byte) => alphabet[byte % alphabet.length]).join("");
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

/** Verifies the first code of a pending secret: two-factor is on, and ten new recovery codes are returned (shown once). */
export async function confirmTwoFactorSetup(userId: string, code: string): Promise<{ recoveryCodes: string[] }> {
  const secret = await pendingTotpSecret(userId);
  if (!secret) {
    if (await isTwoFactorOn(userId)) throw new HttpError(409, TWO_FACTOR_MESSAGES.alreadyOn, "TWO_FACTOR_ALREADY_ON");
    throw new HttpError(409, TWO_FACTOR_MESSAGES.notStarted, "TWO_FACTOR_NOT_STARTED");
  }
  const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  // Turned on, its recovery codes and (for staff) the audit entry: together or not at all.
  await db.transaction(async (tx) => {
    if (!(await takeTotpCode(userId, secret, code, true, tx))) throw wrongCode();
    await tx.delete(schema.recoveryCodes).where(eq(schema.recoveryCodes.userId, userId));
    await tx.insert(schema.recoveryCodes).values(recoveryCodes.map((c) => ({ userId, codeHash: hashToken(normalizeCode(c)) })));
    await recordOwnSignInChange(userId, "security.two_factor_on", "Authenticator app verified; 10 recovery codes made", tx);
  });
  return { recoveryCodes };
}

/** A code of an account with two-factor on: a TOTP code (once per step) or an unused recovery code (spent). */
export async function verifyTwoFactorCode(userId: string, code: string): Promise<boolean> {
  const [row] = await db
    .select({ secret: schema.totpSecrets.secret })
    .from(schema.totpSecrets)
    .where(and(eq(schema.totpSecrets.userId, userId), isNotNull(schema.totpSecrets.enabledAt)));
  if (!row) return false;
  if (/^\d{6}$/.test(normalizeCode(code))) return takeTotpCode(userId, row.secret, code, false);
  const spent = await db
    .update(schema.recoveryCodes)
    .set({ usedAt: new Date() })
    .where(and(eq(schema.recoveryCodes.userId, userId), eq(schema.recoveryCodes.codeHash, hashToken(normalizeCode(code))), isNull(schema.recoveryCodes.usedAt)))
    .returning({ id: schema.recoveryCodes.id });
  return spent.length === 1;
}

/** Turns two-factor off; needs a current code (or a recovery code). */
export async function disableTwoFactor(userId: string, code: string) {
  if (!(await isTwoFactorOn(userId))) throw new HttpError(409, TWO_FACTOR_MESSAGES.notOn, "TWO_FACTOR_NOT_ON");
  if (!(await verifyTwoFactorCode(userId, code))) throw wrongCode();
  await db.transaction(async (tx) => {
    await tx.delete(schema.totpSecrets).where(eq(schema.totpSecrets.userId, userId));
    await tx.delete(schema.recoveryCodes).where(eq(schema.recoveryCodes.userId, userId));
    await recordOwnSignInChange(userId, "security.two_factor_off", "Authenticator app and recovery codes removed", tx);
  });
}

/** Ten new recovery codes for an account with two-factor on (the old ones stop working); needs a current code. */
export async function regenerateRecoveryCodes(userId: string, code: string): Promise<{ recoveryCodes: string[] }> {
  if (!(await isTwoFactorOn(userId))) throw new HttpError(409, TWO_FACTOR_MESSAGES.notOn, "TWO_FACTOR_NOT_ON");
  if (!(await verifyTwoFactorCode(userId, code))) throw wrongCode();
  const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await db.transaction(async (tx) => {
    await tx.delete(schema.recoveryCodes).where(eq(schema.recoveryCodes.userId, userId));
    await tx.insert(schema.recoveryCodes).values(recoveryCodes.map((c) => ({ userId, codeHash: hashToken(normalizeCode(c)) })));
    await recordOwnSignInChange(userId, "security.recovery_codes", "10 new recovery codes; the old ones no longer work", tx);
  });
  return { recoveryCodes };
}

// ---------------------------------------------------------------------------------------------
// The second step of a sign-in (decision 230): a challenge stored hashed, 5 minutes, 5 tries.

export const CHALLENGE_TTL_MS = 5 * 60 * 1000;
export const CHALLENGE_TRIES = 5;
export const CHALLENGE_MESSAGES = {
  expired: "This sign-in has expired or had too many wrong codes. Please sign in again.",
} as const;

export async function createSignInChallenge(userId: string, kind: "cookie" | "bearer") {
  const token = crypto.randomBytes(32).toString("base64url");
  const now = new Date();
  // Old challenges of the account go: one sign-in waits for a code at a time per transport.
  await db.delete(schema.signInChallenges).where(and(eq(schema.signInChallenges.userId, userId), eq(schema.signInChallenges.kind, kind)));
  await db.insert(schema.signInChallenges).values({ tokenHash: hashToken(token), userId, kind, expiresAt: new Date(now.getTime() + CHALLENGE_TTL_MS) });
  return token;
}

/**
 * The account a live challenge belongs to, or null (unknown, expired, used up). Without a transport,
 * either: the passkey options of a second step are the same for a browser and a JSON client.
 */
export async function challengeUser(token: string, kind?: "cookie" | "bearer"): Promise<string | null> {
  const [row] = await db
    .select({ userId: schema.signInChallenges.userId })
    .from(schema.signInChallenges)
    .where(
      and(
        eq(schema.signInChallenges.tokenHash, hashToken(token)),
        kind ? eq(schema.signInChallenges.kind, kind) : undefined,
        gt(schema.signInChallenges.expiresAt, sql`now()`),
        sql`${schema.signInChallenges.attempts} < ${CHALLENGE_TRIES}`,
      ),
    );
  return row?.userId ?? null;
}

/**
 * Answers a challenge: `verify` checks the answer (a code, or a passkey of the account) for the
 * challenge's account. A try is counted before it runs (so parallel guesses cannot exceed 5); a
 * right answer ends the challenge and names the account. `verify` may throw its own HttpError.
 */
export async function answerSignInChallenge(token: string, kind: "cookie" | "bearer", verify: (userId: string) => Promise<boolean>): Promise<string> {
  const [row] = await db
    .update(schema.signInChallenges)
    .set({ attempts: sql`${schema.signInChallenges.attempts} + 1` })
    .where(
      and(
        eq(schema.signInChallenges.tokenHash, hashToken(token)),
        eq(schema.signInChallenges.kind, kind),
        gt(schema.signInChallenges.expiresAt, sql`now()`),
        sql`${schema.signInChallenges.attempts} < ${CHALLENGE_TRIES}`,
      ),
    )
    .returning({ userId: schema.signInChallenges.userId, attempts: schema.signInChallenges.attempts });
  if (!row) throw new HttpError(400, CHALLENGE_MESSAGES.expired, "CHALLENGE_EXPIRED");
  const spendIfUsedUp = async () => {
    if (row.attempts >= CHALLENGE_TRIES) await db.delete(schema.signInChallenges).where(eq(schema.signInChallenges.tokenHash, hashToken(token)));
  };
  let right: boolean;
  try {
    right = await verify(row.userId);
  } catch (error) {
    await spendIfUsedUp();
    throw error;
  }
  if (!right) {
    await spendIfUsedUp();
    throw new HttpError(401, TWO_FACTOR_MESSAGES.wrongCode, "INVALID_CODE");
  }
  await db.delete(schema.signInChallenges).where(eq(schema.signInChallenges.tokenHash, hashToken(token)));
  return row.userId;
}
