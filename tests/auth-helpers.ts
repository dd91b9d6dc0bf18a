import fs from "node:fs";
import path from "node:path";
import { env } from "~/utils/env.server";
import { parseEmail, type ParsedEmail } from "./fakes/email-links";
import { BASE_URL } from "./integration/authorization/helpers";

/** Requests and the outbox for the accounts tests. */

export function formRequest(pathname: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return new Request(`${BASE_URL}${pathname}`, { method: "POST", body: new URLSearchParams(fields), headers });
}

export function jsonRequest(pathname: string, body: unknown, headers: Record<string, string> = {}, method = "POST") {
  return new Request(`${BASE_URL}${pathname}`, {
    method,
    body: typeof body === "string" ? body : JSON.stringify(body),
    headers: { "Content-Type": "application/json", ...headers },
  });
}

/** The .eml files written for one recipient, oldest first (names start with an ISO time). */
export function outboxFiles(to: string): string[] {
  if (!fs.existsSync(env.outboxDir)) return [];
  const tag = to.replace(/[^a-z0-9@._-]/gi, "_");
  return fs
    .readdirSync(env.outboxDir)
    .filter((f) => f.includes(tag))
    .sort()
    .map((f) => path.join(env.outboxDir, f));
}

export type OutboxEmail = ParsedEmail & { raw: string; file: string };

export function readOutbox(to: string): OutboxEmail[] {
  return outboxFiles(to).map((file) => {
    const raw = fs.readFileSync(file, "utf8");
    return { ...parseEmail(raw), raw, file };
  });
}

/** Waits for an e-mail to `to` matching `match` (reset e-mails are written after the response). */
export async function waitForOutboxEmail(to: string, match: (email: OutboxEmail) => boolean = () => true, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = readOutbox(to).filter(match).at(-1);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`No e-mail to ${to} in ${env.outboxDir} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
