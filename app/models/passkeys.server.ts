import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { and, desc, eq, gt, gte, sql } from "drizzle-orm";
import type { z } from "zod";

import { describeDevice } from "~/domain/billing";
import { withWireId } from "~/domain/ids";
import type { passkeyJson } from "~/domain/schemas/account";
import type { PasskeyCredential } from "~/domain/schemas/auth";
import { recordOwnSignInChange } from "~/models/audit.server";
import { getUserById, type User } from "~/models/users.server";
import { db, schema } from "~/utils/db.server";
import { sendEmail } from "~/utils/email.server";
import { env } from "~/utils/env.server";
import { HttpError } from "~/utils/http.server";
import { logger } from "~/utils/logger.server";

/*
 * Passkeys (WebAuthn through @simplewebauthn/server): discoverable credentials, so signing in needs
 * no e-mail first (and the browser can offer them in the e-mail field's autofill). The relying party
 * is APP_URL: its host name is the RP ID and its origin the only origin taken (decision 234). A
 * challenge is stored server-side, single use, for 5 minutes. A passkey signs in alone only with
 * user verification (a PIN, a fingerprint, a face); after a password it is the second step, where
 * presence is enough (decision 257). Adding one needs proof beyond the session and is e-mailed to
 * the owner; a reset link or an undone e-mail change ends those added in the last day (decision 258).
 */

const RP_NAME = "BrandLift";
const CHALLENGE_TTL_MS = 5 * 60 * 1000;
const MAX_PASSKEYS = 20;

export const PASSKEY_MESSAGES = {
  expired: "This passkey request has expired. Please try again.",
  notVerified: "The passkey could not be verified. Please try again.",
  unknown: "This passkey is not registered with BrandLift. Sign in another way, then add it on your security page.",
  duplicate: "This passkey is already added to your account.",
  tooMany: `You can add at most ${MAX_PASSKEYS} passkeys.`,
  notFound: "Passkey not found.",
  userNotVerified:
    "Your passkey did not verify you (no PIN, fingerprint or face was asked). Sign in with your password instead, or use a passkey that asks for one.",
  notYours: "This passkey is not one of this account's. Use a passkey you added to this account.",
} as const;

/** Passkeys added this recently end when the password is reset through a link or an e-mail change is undone. */
export const RECENT_PASSKEY_MS = 24 * 60 * 60 * 1000;

const relyingParty = () => {
  const url = new URL(env.appUrl);
  return { rpID: url.hostname, origin: url.origin };
};

/** A passkey as the security page takes it (decision 309): its id as `id`. */
export interface Passkey {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

/** A passkey as the API sends it: its schema's type. */
export type PasskeyJson = z.infer<typeof passkeyJson>;

export async function listPasskeys(userId: string): Promise<Passkey[]> {
  const rows = await db.select().from(schema.passkeys).where(eq(schema.passkeys.userId, userId)).orderBy(desc(schema.passkeys.createdAt));
  return rows.map(toPasskey);
}

function toPasskey(row: typeof schema.passkeys.$inferSelect): Passkey {
  return { id: row.id, name: row.name, createdAt: row.createdAt.toISOString(), lastUsedAt: row.lastUsedAt?.toISOString() ?? null };
}

/** The API's edge: a passkey with its id as `_id` (docs/api.md). */
export function toPasskeyJson(passkey: Passkey): PasskeyJson {
  return withWireId(passkey);
}

type Recipient = Pick<User, "email" | "name">;

async function deliver(email: Parameters<typeof sendEmail>[0], kind: string) {
  try {
    // Passkey changes: security e-mails, always sent (docs/decisions/291).
    await sendEmail({ ...email, category: "security" });
  } catch (error) {
    logger.error({ err: error, kind }, "could not send account e-mail");
  }
}

async function storeChallenge(challenge: string, purpose: "register" | "authenticate", userId: string | null) {
  // Spent and stale challenges go as new ones come (the table stays small).
  await db.delete(schema.webauthnChallenges).where(sql`${schema.webauthnChallenges.expiresAt} < now()`);
  await db.insert(schema.webauthnChallenges).values({ challenge, purpose, userId, expiresAt: new Date(Date.now() + CHALLENGE_TTL_MS) });
}

/** The challenge the browser signed (from clientDataJSON), taken once; null when unknown, expired or someone else's. */
async function takeChallenge(clientDataJSON: unknown, purpose: "register" | "authenticate", userId: string | null): Promise<string | null> {
  let challenge: unknown;
  try {
    challenge = (JSON.parse(Buffer.from(String(clientDataJSON), "base64url").toString("utf8")) as { challenge?: unknown }).challenge;
  } catch {
    return null;
  }
  if (typeof challenge !== "string" || challenge.length > 200) return null;
  const taken = await db
    .delete(schema.webauthnChallenges)
    .where(
      and(
        eq(schema.webauthnChallenges.challenge, challenge),
        eq(schema.webauthnChallenges.purpose, purpose),
        userId ? eq(schema.webauthnChallenges.userId, userId) : sql`${schema.webauthnChallenges.userId} is null`,
        gt(schema.webauthnChallenges.expiresAt, sql`now()`),
      ),
    )
    .returning({ challenge: schema.webauthnChallenges.challenge });
  return taken[0]?.challenge ?? null;
}

/** Options for navigator.credentials.create(): a discoverable credential for this account. */
export async function registrationOptions(user: Pick<User, "id" | "email" | "name">) {
  const { rpID } = relyingParty();
  const existing = await db
    .select({ credentialId: schema.passkeys.credentialId, transports: schema.passkeys.transports })
    .from(schema.passkeys)
    .where(eq(schema.passkeys.userId, user.id));
  const options = await generateRegistrationOptions({
    rpName: RP_NAME,
    rpID,
    userName: user.email,
    userDisplayName: user.name,
    userID: new TextEncoder().encode(user.id),
    attestationType: "none",
    excludeCredentials: existing.map((row) => ({ id: row.credentialId, transports: row.transports as AuthenticatorTransport[] })),
    authenticatorSelection: { residentKey: "required", userVerification: "preferred" },
  });
  await storeChallenge(options.challenge, "register", user.id);
  return options;
}

/** Verifies a new credential against this account's challenge and keeps it. */
export async function addPasskey(
  userId: string,
  answer: PasskeyCredential | RegistrationResponseJSON,
  name: string | null,
  userAgent: string | null,
): Promise<Passkey> {
  // The schema took in the answer's outline; the library's verification checks the whole of it.
  const credential = answer as unknown as RegistrationResponseJSON;
  const expectedChallenge = await takeChallenge(credential.response?.clientDataJSON, "register", userId);
  if (!expectedChallenge) throw new HttpError(400, PASSKEY_MESSAGES.expired, "PASSKEY_CHALLENGE_EXPIRED");
  const { rpID, origin } = relyingParty();
  let verification;
  try {
    verification = await verifyRegistrationResponse({
      response: credential,
      expectedChallenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      requireUserVerification: false,
    });
  } catch (error) {
    logger.info({ err: error }, "passkey registration refused");
    throw new HttpError(400, PASSKEY_MESSAGES.notVerified, "PASSKEY_NOT_VERIFIED");
  }
  if (!verification.verified) throw new HttpError(400, PASSKEY_MESSAGES.notVerified, "PASSKEY_NOT_VERIFIED");
  const { credential: made } = verification.registrationInfo;
  const [{ count }] = (await db
    .select({ count: sql<number>`count(*)::int` })
    .from(schema.passkeys)
    .where(eq(schema.passkeys.userId, userId))) as [{ count: number }];
  if (count >= MAX_PASSKEYS) throw new HttpError(409, PASSKEY_MESSAGES.tooMany, "TOO_MANY_PASSKEYS");
  const row = await db.transaction(async (tx) => {
    const [added] = await tx
      .insert(schema.passkeys)
      .values({
        userId,
        credentialId: made.id,
        publicKey: Buffer.from(made.publicKey).toString("base64url"),
        counter: made.counter,
        transports: made.transports ?? [],
        name: name ?? describeDevice(userAgent),
      })
      .onConflictDoNothing()
      .returning();
    if (added) await recordOwnSignInChange(userId, "security.passkey_add", `Passkey “${added.name}”`, tx);
    return added;
  });
  if (!row) throw new HttpError(409, PASSKEY_MESSAGES.duplicate, "PASSKEY_EXISTS");
  const owner = await getUserById(userId);
  if (owner) await deliver(passkeyAddedEmail(owner, row.name), "passkey added");
  return toPasskey(row);
}

/** Renames one of the account's passkeys (another's, or none: 404). */
export async function renamePasskey(userId: string, passkeyId: string, name: string): Promise<Passkey> {
  if (!isPasskeyId(passkeyId)) throw new HttpError(404, PASSKEY_MESSAGES.notFound, "NOT_FOUND");
  const [row] = await db
    .update(schema.passkeys)
    .set({ name })
    .where(and(eq(schema.passkeys.id, passkeyId), eq(schema.passkeys.userId, userId)))
    .returning();
  if (!row) throw new HttpError(404, PASSKEY_MESSAGES.notFound, "NOT_FOUND");
  return toPasskey(row);
}

/**
 * Ends the passkeys added in the last 24 hours (a reset link used, an e-mail change undone: the
 * account may have been someone else's for a while); their names, for the e-mail that says so.
 */
export async function endRecentPasskeys(userId: string, reason: string): Promise<string[]> {
  return db.transaction(async (tx) => {
    const ended = await tx
      .delete(schema.passkeys)
      .where(and(eq(schema.passkeys.userId, userId), gte(schema.passkeys.createdAt, new Date(Date.now() - RECENT_PASSKEY_MS))))
      .returning({ name: schema.passkeys.name });
    for (const { name } of ended)
      await recordOwnSignInChange(userId, "security.passkey_remove", `Passkey “${name}” (added in the last 24 hours; ${reason})`, tx);
    return ended.map((row) => row.name);
  });
}

/** The sentence an account e-mail adds when recent passkeys were ended. */
export function endedPasskeysSentence(names: string[]) {
  const list = names.map((name) => `“${name}”`).join(", ");
  return names.length === 1
    ? `The passkey added in the last 24 hours (${list}) was removed: add it again from your security page if it was yours.`
    : `The ${names.length} passkeys added in the last 24 hours (${list}) were removed: add them again from your security page if they were yours.`;
}

function passkeyAddedEmail(user: Recipient, name: string) {
  return {
    to: user.email,
    subject: "A passkey was added to your BrandLift account",
    heading: "A passkey was added",
    paragraphs: [
      `Hi ${user.name},`,
      `A passkey (“${name}”) was just added to your BrandLift account. It signs in to your account on the device that holds it.`,
      "If this was not you, reset your password straight away with 'Forgot your password?' on the sign-in page: that removes every passkey added in the last 24 hours. Then let our team know.",
    ],
    action: { label: "Review your passkeys", url: `${env.appUrl}/dashboard/security#passkeys` },
  };
}

/** Removes one of the account's passkeys (another's, or none: 404). */
const isPasskeyId = (value: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);

export async function removePasskey(userId: string, passkeyId: string) {
  if (!isPasskeyId(passkeyId)) throw new HttpError(404, PASSKEY_MESSAGES.notFound, "NOT_FOUND");
  const removed = await db.transaction(async (tx) => {
    const [gone] = await tx
      .delete(schema.passkeys)
      .where(and(eq(schema.passkeys.id, passkeyId), eq(schema.passkeys.userId, userId)))
      .returning({ id: schema.passkeys.id, name: schema.passkeys.name });
    if (gone) await recordOwnSignInChange(userId, "security.passkey_remove", `Passkey “${gone.name}”`, tx);
    return gone;
  });
  if (!removed) throw new HttpError(404, PASSKEY_MESSAGES.notFound, "NOT_FOUND");
  return removed;
}

/**
 * Options for navigator.credentials.get(). Without an account: any discoverable credential of this
 * site (no e-mail asked first), signing in alone, so the person is verified. For the second step
 * of an account's sign-in: that account's passkeys, where presence is enough.
 */
export async function authenticationOptions(secondStepOf?: string) {
  const { rpID } = relyingParty();
  const allowCredentials = secondStepOf
    ? (
        await db
          .select({ credentialId: schema.passkeys.credentialId, transports: schema.passkeys.transports })
          .from(schema.passkeys)
          .where(eq(schema.passkeys.userId, secondStepOf))
      ).map((row) => ({ id: row.credentialId, transports: row.transports as AuthenticatorTransport[] }))
    : undefined;
  const options = await generateAuthenticationOptions({ rpID, allowCredentials, userVerification: secondStepOf ? "preferred" : "required" });
  await storeChallenge(options.challenge, "authenticate", secondStepOf ?? null);
  return options;
}

type PasskeyRow = typeof schema.passkeys.$inferSelect;

/** Checks an assertion against the stored credential and moves its counter; whether the person was verified. */
async function checkAssertion(passkey: PasskeyRow, credential: AuthenticationResponseJSON, expectedChallenge: string): Promise<{ userVerified: boolean }> {
  const { rpID, origin } = relyingParty();
  let verification;
  try {
    verification = await verifyAuthenticationResponse({
      response: credential,
      expectedChallenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      credential: {
        id: passkey.credentialId,
        publicKey: new Uint8Array(Buffer.from(passkey.publicKey, "base64url")),
        counter: passkey.counter,
        transports: passkey.transports as AuthenticatorTransport[],
      },
      // Checked by the caller: a second step takes presence alone, signing in alone does not.
      requireUserVerification: false,
    });
  } catch (error) {
    logger.info({ err: error }, "passkey assertion refused");
    throw new HttpError(401, PASSKEY_MESSAGES.notVerified, "PASSKEY_NOT_VERIFIED");
  }
  if (!verification.verified) throw new HttpError(401, PASSKEY_MESSAGES.notVerified, "PASSKEY_NOT_VERIFIED");
  await db
    .update(schema.passkeys)
    .set({ counter: verification.authenticationInfo.newCounter, lastUsedAt: new Date() })
    .where(eq(schema.passkeys.id, passkey.id));
  return { userVerified: verification.authenticationInfo.userVerified };
}

/** The schema took in the answer's outline; the library's verification checks the whole of it. */
const asAssertion = (answer: PasskeyCredential | AuthenticationResponseJSON) => answer as unknown as AuthenticationResponseJSON;

async function passkeyByCredential(credential: AuthenticationResponseJSON) {
  const [passkey] = await db
    .select()
    .from(schema.passkeys)
    .where(eq(schema.passkeys.credentialId, String(credential.id)));
  return passkey ?? null;
}

/**
 * Signs in with a passkey alone: the account it belongs to, or a 400/401 HttpError. It counts as
 * both factors only when the authenticator verified the person (user verification): an assertion
 * with presence alone is refused here (decision 257).
 */
export async function verifyPasskeySignIn(answer: PasskeyCredential | AuthenticationResponseJSON): Promise<User> {
  const credential = asAssertion(answer);
  const expectedChallenge = await takeChallenge(credential.response?.clientDataJSON, "authenticate", null);
  if (!expectedChallenge) throw new HttpError(400, PASSKEY_MESSAGES.expired, "PASSKEY_CHALLENGE_EXPIRED");
  const passkey = await passkeyByCredential(credential);
  if (!passkey) throw new HttpError(401, PASSKEY_MESSAGES.unknown, "PASSKEY_UNKNOWN");
  const { userVerified } = await checkAssertion(passkey, credential, expectedChallenge);
  if (!userVerified) throw new HttpError(401, PASSKEY_MESSAGES.userNotVerified, "PASSKEY_USER_NOT_VERIFIED");
  const user = await getUserById(passkey.userId);
  if (!user || user.disabledAt) throw new HttpError(401, PASSKEY_MESSAGES.notVerified, "PASSKEY_NOT_VERIFIED");
  return user;
}

/**
 * The second step of a sign-in with a passkey of that account (the options of
 * `authenticationOptions(userId)`): true when verified; a 400/401 HttpError otherwise.
 */
export async function verifyPasskeyOf(userId: string, answer: PasskeyCredential | AuthenticationResponseJSON): Promise<boolean> {
  const credential = asAssertion(answer);
  const expectedChallenge = await takeChallenge(credential.response?.clientDataJSON, "authenticate", userId);
  if (!expectedChallenge) throw new HttpError(400, PASSKEY_MESSAGES.expired, "PASSKEY_CHALLENGE_EXPIRED");
  const passkey = await passkeyByCredential(credential);
  if (!passkey || passkey.userId !== userId) throw new HttpError(401, PASSKEY_MESSAGES.notYours, "PASSKEY_NOT_VERIFIED");
  await checkAssertion(passkey, credential, expectedChallenge);
  return true;
}
