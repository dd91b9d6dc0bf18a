import crypto from "node:crypto";

import { env, sessionSecrets } from "~/utils/env.server";

/*
 * The Reply-To of a member's chat notices (docs/decisions/288): `reply+<token>@INBOUND_DOMAIN`,
 * the token being the member's id and an HMAC (with the session secrets: the first signs, all
 * verify) of the member and their client. Lower-case hex, so a provider that folds case changes
 * nothing, and 58 characters with `reply+` (a local part holds 64). A member moved to another
 * client, or a secret rotated away, makes old addresses stop.
 */

const SIGNATURE_HEX = 20;

function sign(secret: string, memberId: string, clientId: string) {
  return crypto.createHmac("sha256", secret).update(`reply-to:${memberId}:${clientId}`).digest("hex").slice(0, SIGNATURE_HEX);
}

/** The Reply-To address of a member's chat notices, or undefined without INBOUND_DOMAIN. */
export function replyToAddress(memberId: string, clientId: string): string | undefined {
  if (!env.inboundDomain) return undefined;
  return `reply+${memberId.replace(/-/g, "")}${sign(sessionSecrets(env)[0]!, memberId, clientId)}@${env.inboundDomain}`;
}

const TOKEN = /reply\+([0-9a-f]{32})([0-9a-f]{20})@/i;

export function tokenIn(addresses: string[]) {
  for (const address of addresses) {
    const match = TOKEN.exec(address);
    if (match) {
      const hex = match[1]!.toLowerCase();
      const memberId = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
      return { memberId, signature: match[2]!.toLowerCase() };
    }
  }
  return null;
}

/** Whether `signature` is the member's for this client under any current secret. */
export function replySignatureValid(memberId: string, clientId: string, signature: string) {
  const given = Buffer.from(signature);
  return sessionSecrets(env).some((secret) => {
    const expected = Buffer.from(sign(secret, memberId, clientId));
    return expected.length === given.length && crypto.timingSafeEqual(expected, given);
  });
}
