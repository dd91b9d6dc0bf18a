import crypto from "node:crypto";
import { eq } from "drizzle-orm";

import { isUuid } from "~/domain/ids";
import { db, schema } from "~/utils/db.server";
import { env, sessionSecrets } from "~/utils/env.server";

/*
 * Links to a post's media that work without signing in for 24 hours, for the publishing tool that
 * receives `post.due` (docs/integrations.md): /files/posts/:id?expires=…&sig=…, an HMAC with the
 * session secrets (the first signs, all verify) as report download links are.
 */

export const POST_MEDIA_URL_TTL_MS = 24 * 3600 * 1000;

function sign(secret: string, mediaId: string, expires: number) {
  return crypto.createHmac("sha256", secret).update(`post-media:${mediaId}:${expires}`).digest("base64url");
}

export function createPostMediaUrl(mediaId: string, now = Date.now()) {
  const expires = now + POST_MEDIA_URL_TTL_MS;
  const sig = sign(sessionSecrets(env)[0]!, mediaId, expires);
  return `${env.appUrl}/files/posts/${mediaId}?${new URLSearchParams({ expires: String(expires), sig })}`;
}

export function verifyPostMediaSignature(mediaId: string, expiresParam: string | null, sig: string | null, now = Date.now()) {
  if (!expiresParam || !sig || !/^\d{1,15}$/.test(expiresParam)) return false;
  const expires = Number(expiresParam);
  if (expires < now || expires > now + POST_MEDIA_URL_TTL_MS) return false;
  const given = Buffer.from(sig);
  return sessionSecrets(env).some((secret) => {
    const expected = Buffer.from(sign(secret, mediaId, expires));
    return expected.length === given.length && crypto.timingSafeEqual(expected, given);
  });
}

/** The file a valid signed link names (its post may be in any state: the link was made for it). */
export async function findSignedPostMedia(mediaId: string, expires: string | null, sig: string | null) {
  if (!isUuid(mediaId) || !verifyPostMediaSignature(mediaId, expires, sig)) return null;
  const [row] = await db.select().from(schema.postMedia).where(eq(schema.postMedia.id, mediaId)).limit(1);
  return row ?? null;
}
