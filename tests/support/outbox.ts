import fs from "node:fs";
import path from "node:path";

import { parseEmail, type ParsedEmail } from "../fakes/email-links";

/*
 * The one outbox reader: without SMTP_URL the app writes every e-mail as an .eml file in
 * DATA_DIR/outbox, named with an ISO time and the recipient. (No app import here: payments tests
 * set their Stripe settings before the app's env is first read.)
 */

const outboxDir = () => path.join(process.env.DATA_DIR ?? "data", "outbox");

export type OutboxEmail = ParsedEmail & { raw: string; file: string };

/** The .eml files written for one recipient, oldest first. */
export function outboxFiles(to: string): string[] {
  const dir = outboxDir();
  if (!fs.existsSync(dir)) return [];
  const tag = to.replace(/[^a-z0-9@._-]/gi, "_");
  return fs
    .readdirSync(dir)
    .filter((file) => file.includes(tag))
    .sort()
    .map((file) => path.join(dir, file));
}

/** Quoted-printable soft line breaks and escapes undone, so assertions can search the text. */
export function decodeEmail(raw: string) {
  return raw.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** The e-mails to `to`, oldest first: parsed (decoded `text`, links) and raw. */
export function readOutbox(to: string): OutboxEmail[] {
  return outboxFiles(to).map((file) => {
    const raw = fs.readFileSync(file, "utf8");
    return { ...parseEmail(raw), raw, file };
  });
}

/** Waits for an e-mail to `to` matching `match` (some e-mails are written after the response). */
export async function waitForOutboxEmail(to: string, match: (email: OutboxEmail) => boolean = () => true, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = readOutbox(to).filter(match).at(-1);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`No e-mail to ${to} in ${outboxDir()} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
