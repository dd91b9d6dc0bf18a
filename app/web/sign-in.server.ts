import { can } from "~/domain/permissions";
import type { PasskeyCredential } from "~/domain/schemas/auth";
import { authenticationOptions, verifyPasskeyOf } from "~/models/passkeys.server";
import { hasAssignedWork } from "~/models/purchases.server";
import { createSession, revokeOtherSessions, revokeSession } from "~/models/sessions.server";
import {
  answerSignInChallenge,
  CHALLENGE_MESSAGES,
  challengeUser,
  confirmTwoFactorSetup,
  createSignInChallenge,
  twoFactorMethodsOf,
  verifyTwoFactorCode,
} from "~/models/two-factor.server";
import { getUserById, type User } from "~/models/users.server";
import { HttpError } from "~/utils/http.server";
import { consume, limits, refund } from "~/utils/rate-limit.server";
import { LOGIN_SUCCESS_MESSAGE } from "~/web/auth-form.server";
import { getIdentity, safeRedirect, sessionCookieHeader } from "~/web/auth.server";
import { noteBrowserSignIn } from "~/web/sign-in-device.server";
import { redirectWithToast } from "~/web/toast.server";

/*
 * What happens after the first factor (a password, a magic link, a reset or set-password link):
 * the one place that decides. An account with a second factor (an authenticator app that is on, or
 * a passkey) gets a challenge to answer with a code or with one of its passkeys (decisions 230, 257);
 * any other gets its session. Every sign-in path calls it: the sign-in form, the JSON API's token,
 * the magic link and a first password set through a link.
 */

/** The ways a second step may be answered: an authenticator or recovery code, a passkey of the account. */
export type SecondStepMethod = "totp" | "passkey";
export type FirstStep = { kind: "signed-in"; user: User } | { kind: "two-factor"; challenge: string; methods: SecondStepMethod[] };

export async function afterFirstFactor(user: User, transport: "cookie" | "bearer"): Promise<FirstStep> {
  const methods = await methodsOf(user.id);
  if (methods.length === 0) return { kind: "signed-in", user };
  return { kind: "two-factor", challenge: await createSignInChallenge(user.id, transport), methods };
}

async function methodsOf(userId: string): Promise<SecondStepMethod[]> {
  const factors = await twoFactorMethodsOf(userId);
  return [...(factors.totp ? (["totp"] as const) : []), ...(factors.passkey ? (["passkey"] as const) : [])];
}

/** How a live challenge may be answered (the form shown again after a wrong answer); none for an unknown one. */
export async function secondStepMethods(challenge: string): Promise<SecondStepMethod[]> {
  const userId = challenge ? await challengeUser(challenge) : null;
  return userId ? methodsOf(userId) : [];
}

/** WebAuthn options for answering a live challenge with one of its account's passkeys; 400 once it is spent. */
export async function secondStepPasskeyOptions(challenge: string) {
  const userId = await challengeUser(challenge);
  if (!userId || !(await twoFactorMethodsOf(userId)).passkey) throw expired();
  return authenticationOptions(userId);
}

/** What answers a second step: a code (authenticator or recovery), or a passkey's answer to the step's options. */
export type SecondStepAnswer = { code: string } | { credential: PasskeyCredential };

/**
 * Code attempts spend a point per account and per client address before the code is checked
 * (so a burst in parallel cannot slip past) and get it back when the code was right.
 */
export async function withCodeLimits<T>(clientIp: string, userId: string, attempt: () => Promise<T>): Promise<T> {
  const account = `user:${userId}`;
  const address = `ip:${clientIp}`;
  await consume(limits.twoFactor, account);
  await consume(limits.twoFactorAddress, address);
  const result = await attempt();
  await refund(limits.twoFactor, account);
  await refund(limits.twoFactorAddress, address);
  return result;
}

const expired = () => new HttpError(400, CHALLENGE_MESSAGES.expired, "CHALLENGE_EXPIRED");

/**
 * Answers a sign-in challenge with a code or a passkey: the account, signed in; 401 for a wrong
 * answer, 400 once the challenge is spent. Both count as tries of the challenge and of the code limits.
 */
export async function answerChallenge(clientIp: string, challenge: string, transport: "cookie" | "bearer", answer: SecondStepAnswer): Promise<User> {
  const userId = await challengeUser(challenge, transport);
  if (!userId) throw expired();
  const verify = "code" in answer ? (id: string) => verifyTwoFactorCode(id, answer.code) : (id: string) => verifyPasskeyOf(id, answer.credential);
  const answered = await withCodeLimits(clientIp, userId, () => answerSignInChallenge(challenge, transport, verify));
  const user = await getUserById(answered);
  if (!user || user.disabledAt) throw expired();
  return user;
}

/**
 * Turns the authenticator on with its first code (ten recovery codes, shown once); every other
 * session and API token of the account ends, as after a password change: one that was signed in
 * before the second factor existed does not keep going without it.
 */
export async function turnOnTwoFactor(identity: { user: { id: string }; token: string }, code: string, clientIp: string) {
  const result = await withCodeLimits(clientIp, identity.user.id, () => confirmTwoFactorSetup(identity.user.id, code));
  await revokeOtherSessions(identity.user.id, identity.token);
  return result;
}

/**
 * A browser sign-in is complete (password and, where set, a second factor; a magic link; a
 * passkey): a fresh session (the one the browser had ends: no fixation), the browser noted as a
 * device of the account (an e-mail when it is new, decision 233; `quiet` for an account's first
 * device) and the way on.
 */
export async function completeBrowserSignIn(
  request: Request,
  user: User,
  redirectTo: FormDataEntryValue | string | null | undefined,
  clientIp: string,
  options: { quiet?: boolean; message?: string } = {},
) {
  const previous = await getIdentity(request);
  if (previous?.via === "cookie") await revokeSession(previous.token);
  const session = await createSession(user.id, "cookie");
  // Staff with open work assigned to them start on "My work" (decision 155); a redirectTo still wins.
  const home = can(user, "area:team") && (await hasAssignedWork(user.id)) ? "/dashboard/work" : "/dashboard";
  const headers = new Headers();
  headers.append("Set-Cookie", await sessionCookieHeader(session.token, session.expiresAt));
  headers.append("Set-Cookie", await noteBrowserSignIn(request, user.id, clientIp, options.quiet ? { quiet: true } : undefined));
  return redirectWithToast(safeRedirect(redirectTo, home), { type: "success", message: options.message ?? LOGIN_SUCCESS_MESSAGE }, { headers });
}
