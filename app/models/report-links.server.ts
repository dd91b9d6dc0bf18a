import crypto from "node:crypto";

import { env, sessionSecrets } from "~/utils/env.server";

/*
 * Short-lived download links: /files/reports/:id?expires=…&sig=… works without a header for
 * DOWNLOAD_URL_TTL_MS. The signature is an HMAC with the session secrets (the first signs, all
 * verify, so rotating SESSION_SECRET keeps links issued a moment ago working).
 */

export const DOWNLOAD_URL_TTL_MS = 5 * 60 * 1000;

function sign(secret: string, reportId: string, expires: number) {
  return crypto.createHmac("sha256", secret).update(`report-download:${reportId}:${expires}`).digest("base64url");
}

export function createDownloadUrl(reportId: string, now = Date.now()) {
  const expires = now + DOWNLOAD_URL_TTL_MS;
  const sig = sign(sessionSecrets(env)[0], reportId, expires);
  return `${env.appUrl}/files/reports/${reportId}?${new URLSearchParams({ expires: String(expires), sig })}`;
}

export function verifyDownloadSignature(reportId: string, expiresParam: string | null, sig: string | null, now = Date.now()) {
  if (!expiresParam || !sig || !/^\d{1,15}$/.test(expiresParam)) return false;
  const expires = Number(expiresParam);
  if (expires < now || expires > now + DOWNLOAD_URL_TTL_MS) return false;
  const given = Buffer.from(sig);
  return sessionSecrets(env).some((secret) => {
    const expected = Buffer.from(sign(secret, reportId, expires));
    return expected.length === given.length && crypto.timingSafeEqual(expected, given);
  });
}

/** RFC 6266 / 5987: an ASCII fallback for old clients and the exact UTF-8 name for the rest. */
export function contentDisposition(fileName: string) {
  const fallback = fileName.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_") || "report";
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
