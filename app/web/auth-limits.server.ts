import { requestMagicLink } from "~/models/magic-links.server";
import { requestPasswordReset } from "~/models/password-tokens.server";
import { normalizeEmail } from "~/models/users.server";
import { afterResponse } from "~/utils/background.server";
import { consume, ensureAvailable, limits, penalize, refund } from "~/utils/rate-limit.server";
import { InvalidCredentialsError } from "~/web/auth-form.server";

/*
 * Sign-in limits count failures: 10 a minute per client address and e-mail, 50 in 10 minutes per
 * address, and 100 an hour per account from anywhere. The first two are spent before the password
 * is checked (so a burst in parallel cannot slip past) and given back when it was right; the
 * account counter only ever counts wrong passwords, so a stranger cycling addresses cannot lock
 * the owner out below 100 failures an hour. Any refusal is a 429 HttpError with Retry-After.
 */
export async function withSignInLimits<T>(clientIp: string, email: string, attempt: () => Promise<T>): Promise<T> {
  const account = `email:${normalizeEmail(email)}`;
  const addressAndAccount = `ip:${clientIp}|${account}`;
  const address = `ip:${clientIp}`;
  await consume(limits.signIn, addressAndAccount);
  await consume(limits.signInAddress, address);
  await ensureAvailable(limits.signInAccount, account);
  try {
    const result = await attempt();
    await Promise.all([refund(limits.signIn, addressAndAccount), refund(limits.signInAddress, address)]);
    return result;
  } catch (error) {
    if (error instanceof InvalidCredentialsError) await penalize(limits.signInAccount, account);
    throw error;
  }
}

/**
 * Forgot password: 5 an hour per e-mail and 20 an hour per client address (a 429 HttpError past
 * either). The lookup and the e-mail happen after the answer, so the answer, and the time it
 * takes, are the same whether or not the account exists.
 */
export async function startPasswordReset(clientIp: string, email: string) {
  await consume(limits.forgotPassword, `email:${normalizeEmail(email)}`);
  await consume(limits.forgotPasswordAddress, `ip:${clientIp}`);
  afterResponse("password reset", () => requestPasswordReset(email));
}

/** Magic sign-in link: the same limits and the same answer whether or not the account exists (the work happens after it). */
export async function startMagicLink(clientIp: string, email: string) {
  await consume(limits.magicLink, `email:${normalizeEmail(email)}`);
  await consume(limits.magicLinkAddress, `ip:${clientIp}`);
  afterResponse("magic link", () => requestMagicLink(email));
}
