import { can } from "~/domain/permissions";
import { hasAssignedWork } from "~/models/purchases.server";
import { createSession, revokeSession } from "~/models/sessions.server";
import { answerSignInChallenge, CHALLENGE_MESSAGES, challengeUser, createSignInChallenge, hasTotp } from "~/models/two-factor.server";
import { getUserById, type User } from "~/models/users.server";
import { HttpError } from "~/utils/http.server";
import { consume, limits, refund } from "~/utils/rate-limit.server";
import { LOGIN_SUCCESS_MESSAGE } from "~/web/auth-form.server";
import { getIdentity, safeRedirect, sessionCookieHeader } from "~/web/auth.server";
import { noteBrowserSignIn } from "~/web/sign-in-device.server";
import { redirectWithToast } from "~/web/toast.server";

/*
 * What happens after the first factor (a password, a magic link): an account with an
 * authenticator gets a challenge to answer with a code (decision 230); any other gets its session.
 * Shared by the sign-in page and the JSON API.
 */

export type FirstStep = { kind: "signed-in"; user: User } | { kind: "second-factor"; challenge: string };

export async function afterFirstFactor(user: User, transport: "cookie" | "bearer"): Promise<FirstStep> {
  if (await hasTotp(user.id)) return { kind: "second-factor", challenge: await createSignInChallenge(user.id, transport) };
  return { kind: "signed-in", user };
}

/**
 * Code attempts spend a point per account and per client address before the code is checked
 * (so a burst in parallel cannot slip past) and get it back when the code was right.
 */
export async function withCodeLimits<T>(clientIp: string, userId: string, attempt: () => Promise<T>): Promise<T> {
  const account = `user:${userId}`;
  const address = `ip:${clientIp}`;
  await consume(limits.secondFactor, account);
  await consume(limits.secondFactorAddress, address);
  const result = await attempt();
  await refund(limits.secondFactor, account);
  await refund(limits.secondFactorAddress, address);
  return result;
}

const expired = () => new HttpError(400, CHALLENGE_MESSAGES.expired, "CHALLENGE_EXPIRED");

/** Answers a sign-in challenge with a code: the account, signed in; 401 for a wrong code, 400 once the challenge is spent. */
export async function answerChallenge(clientIp: string, challenge: string, transport: "cookie" | "bearer", code: string): Promise<User> {
  const userId = await challengeUser(challenge, transport);
  if (!userId) throw expired();
  const answered = await withCodeLimits(clientIp, userId, () => answerSignInChallenge(challenge, transport, code));
  const user = await getUserById(answered);
  if (!user || user.disabledAt) throw expired();
  return user;
}

/**
 * A browser sign-in is complete (password and, where set, a second factor; a magic link; a
 * passkey): a fresh session (the one the browser had ends: no fixation), the browser noted as a
 * device of the account (an e-mail when it is new, decision 233) and the way on.
 */
export async function completeBrowserSignIn(request: Request, user: User, redirectTo: FormDataEntryValue | string | null | undefined, clientIp: string) {
  const previous = await getIdentity(request);
  if (previous?.via === "cookie") await revokeSession(previous.token);
  const session = await createSession(user.id, "cookie");
  // Staff with open work assigned to them start on "My work" (issue 23); a redirectTo still wins.
  const home = can(user, "area:team") && (await hasAssignedWork(user.id)) ? "/dashboard/work" : "/dashboard";
  const headers = new Headers();
  headers.append("Set-Cookie", await sessionCookieHeader(session.token, session.expiresAt));
  headers.append("Set-Cookie", await noteBrowserSignIn(request, user.id, clientIp));
  return redirectWithToast(safeRedirect(redirectTo, home), { type: "success", message: LOGIN_SUCCESS_MESSAGE }, { headers });
}
