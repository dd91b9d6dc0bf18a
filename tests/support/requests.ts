import crypto from "node:crypto";

/*
 * The one request builder: real Requests as a browser or a JSON client sends them, and the load
 * context the Express adapter would pass (a fresh client address keeps rate limits apart).
 */

export const BASE_URL = "http://localhost";
export type LoadContext = { requestId: string; cspNonce: string; clientIp: string };
export const CONTEXT: LoadContext = { requestId: "test", cspNonce: "", clientIp: "127.0.0.1" };
/** A client address no other call uses, so rate limits never mix calls (random: test files share Redis in the services suite). */
export const nextIp = () => `10.${crypto.randomBytes(3).join(".")}`;
export const loadContext = (clientIp = nextIp()): LoadContext => ({ requestId: `test-${crypto.randomUUID()}`, cspNonce: "", clientIp });
export const freshContext = () => loadContext();

/** Unique names, so test files and tests never collide (no app import: safe before settings are set). */
export const unique = () => crypto.randomBytes(5).toString("hex");
export const uniqueEmail = (prefix = "user", domain = "example.test") => `${prefix}-${unique()}@${domain}`;

const url = (path: string) => (path.startsWith("http") ? path : `${BASE_URL}${path}`);

/** A form post from our own page (urlencoded, same Origin); a field given an array repeats. */
export function formRequest(path: string, fields: Record<string, string | string[]>, headers: Record<string, string> = {}) {
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) for (const v of [value].flat()) form.append(name, v);
  return new Request(url(path), {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: BASE_URL, ...headers },
    body: form.toString(),
  });
}

/** A JSON call (POST unless `method` says otherwise); a string body is sent as it is (malformed JSON tests). */
export function jsonRequest(path: string, body: unknown, headers: Record<string, string> = {}, method = "POST") {
  return new Request(url(path), {
    method,
    headers: { "Content-Type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}
