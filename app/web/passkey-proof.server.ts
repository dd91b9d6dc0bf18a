import { PASSKEY_PROOF_MESSAGES, type PasskeyProof } from "~/domain/schemas/auth";
import { assertCurrentPassword, getAccount } from "~/models/account.server";
import { sessionStartedAt } from "~/models/sessions.server";
import { isTwoFactorOn, TWO_FACTOR_MESSAGES, verifyTwoFactorCode } from "~/models/two-factor.server";
import { HttpError } from "~/utils/http.server";
import { withCodeLimits } from "~/web/sign-in.server";

/*
 * Adding a passkey adds a way in that needs no password and no code, so a live session alone is
 * not enough (decision 258): the owner confirms with a code when the authenticator app is on, else
 * with the password; an account with neither must have signed in within the last ten minutes (a
 * fresh magic link). Checked before the creation options are made: without the proof there is no
 * challenge, and so nothing a new passkey could answer.
 */

export const RECENT_SIGN_IN_MS = 10 * 60 * 1000;

/** What this account confirms a new passkey with, and (for an account with neither) until when its sign-in counts as recent. */
export async function passkeyProofOf(userId: string, sessionId: string): Promise<{ proof: PasskeyProof; recentUntil: Date | null }> {
  if (await isTwoFactorOn(userId)) return { proof: "code", recentUntil: null };
  const account = await getAccount(userId);
  if (account.passwordHash) return { proof: "password", recentUntil: null };
  const started = await sessionStartedAt(sessionId);
  return { proof: "recent-sign-in", recentUntil: started ? new Date(started.getTime() + RECENT_SIGN_IN_MS) : null };
}

/** Refuses (400/403 HttpError) unless the proof this account needs is given and right. */
export async function requirePasskeyProof(
  identity: { user: { id: string }; sessionId: string },
  given: { password?: string; code?: string },
  clientIp: string,
): Promise<void> {
  const userId = identity.user.id;
  const { proof, recentUntil } = await passkeyProofOf(userId, identity.sessionId);
  if (proof === "code") {
    const code = given.code;
    if (!code) throw new HttpError(400, PASSKEY_PROOF_MESSAGES.codeRequired, "CODE_REQUIRED");
    await withCodeLimits(clientIp, userId, async () => {
      if (!(await verifyTwoFactorCode(userId, code))) throw new HttpError(400, TWO_FACTOR_MESSAGES.wrongCode, "INVALID_CODE");
    });
    return;
  }
  if (proof === "password") {
    if (!given.password) throw new HttpError(400, PASSKEY_PROOF_MESSAGES.passwordRequired, "PASSWORD_REQUIRED");
    await assertCurrentPassword(await getAccount(userId), given.password, clientIp);
    return;
  }
  if (!recentUntil || recentUntil.getTime() <= Date.now()) throw new HttpError(403, PASSKEY_PROOF_MESSAGES.signInAgain, "RECENT_SIGN_IN_REQUIRED");
}
