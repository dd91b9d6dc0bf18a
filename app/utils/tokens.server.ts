import crypto from "node:crypto";

/** A 256-bit random secret, URL-safe. */
export function randomToken() {
  return crypto.randomBytes(32).toString("base64url");
}

/** Secrets are stored only as their SHA-256. */
export function hashToken(token: string) {
  return crypto.createHash("sha256").update(token).digest("hex");
}
