import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/*
 * Helpers for the storefront and payments tests. App modules are imported lazily, so a test file
 * can set STRIPE_* settings first (env.server.ts reads them once, at import).
 */

export const CONTEXT = { requestId: "test", cspNonce: "", clientIp: "127.0.0.1" };

/**
 * A fresh, random client address per call, so the order and contact limits never couple unrelated
 * tests (with REDIS_URL the limits outlive the test run, so a counter would collide across runs).
 */
export const freshContext = () => ({ ...CONTEXT, clientIp: `10.${crypto.randomBytes(3).join(".")}` });

export async function seedServices() {
  const [{ seedCatalogue }, { db }, { listActiveServices }] = await Promise.all([
    import("#db/seed"),
    import("~/utils/db.server"),
    import("~/models/services.server"),
  ]);
  await seedCatalogue(db);
  return listActiveServices();
}

export function jsonRequest(url: string, body: unknown, init: RequestInit = {}) {
  return new Request(`http://localhost${url}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...init.headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

export function formRequest(url: string, fields: Record<string, string | string[]>, headers: Record<string, string> = {}) {
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) for (const v of [value].flat()) form.append(name, v);
  return new Request(`http://localhost${url}`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: "http://localhost", ...headers },
    body: form.toString(),
  });
}

let uniqueCounter = 0;
export const uniqueEmail = (prefix = "buyer") => `${prefix}-${Date.now().toString(36)}-${++uniqueCounter}@example.test`;

/** The raw .eml files the outbox holds for this recipient (outbox file names carry the recipient). */
export function emailsTo(email: string): string[] {
  const outbox = path.join(process.env.DATA_DIR ?? "", "outbox");
  if (!fs.existsSync(outbox)) return [];
  const key = email.replace(/[^a-z0-9@._-]/gi, "_");
  return fs
    .readdirSync(outbox)
    .filter((file) => file.includes(key))
    .sort()
    .map((file) => fs.readFileSync(path.join(outbox, file), "utf8"));
}

/** Quoted-printable soft line breaks and escapes undone, so assertions can search the text. */
export function decodeEmail(raw: string) {
  return raw.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}
