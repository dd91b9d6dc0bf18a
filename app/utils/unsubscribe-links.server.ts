import crypto from "node:crypto";

import { NOTIFICATION_KINDS, type NotificationKind } from "~/domain/notifications";

import { env, sessionSecrets } from "./env.server";

/*
 * One-click unsubscribe links (RFC 8058, docs/decisions/291): one per person and kind, signed with
 * the session secret (any of them, so a rotated secret keeps old links working). A link never
 * expires: a years-old e-mail still unsubscribes.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function signature(secret: string, userId: string, kind: NotificationKind) {
  return crypto.createHmac("sha256", secret).update(`unsubscribe:${userId}:${kind}`).digest("base64url").slice(0, 32);
}

/** The token of a person's one-click link for a kind. */
export function unsubscribeToken(userId: string, kind: NotificationKind) {
  return `${userId}.${kind}.${signature(sessionSecrets(env)[0]!, userId, kind)}`;
}

/** The one-click address that goes in an e-mail's List-Unsubscribe header. */
export function unsubscribeUrl(userId: string, kind: NotificationKind) {
  return `${env.appUrl}/unsubscribe/${unsubscribeToken(userId, kind)}`;
}

/** Who and what a token stands for, if it is one of ours. */
export function readUnsubscribeToken(token: string): { userId: string; kind: NotificationKind } | null {
  const [userId, kind, given, ...rest] = token.split(".");
  if (rest.length > 0 || !userId || !kind || !given || !UUID.test(userId) || !(NOTIFICATION_KINDS as readonly string[]).includes(kind)) return null;
  const givenBytes = Buffer.from(given);
  const valid = sessionSecrets(env).some((secret) => {
    const expected = Buffer.from(signature(secret, userId, kind as NotificationKind));
    return expected.length === givenBytes.length && crypto.timingSafeEqual(expected, givenBytes);
  });
  return valid ? { userId, kind: kind as NotificationKind } : null;
}
