import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

import { parseEmail, type ParsedEmail } from "./email-links";

/**
 * A real SMTP server on a free local port that keeps every message it receives, so nodemailer's
 * SMTP transport is exercised end to end (SMTP_URL=smtp://127.0.0.1:<port>).
 */

export interface ReceivedEmail extends ParsedEmail {
  envelopeTo: string[];
  raw: string;
}

export interface FakeSmtp {
  url: string;
  messages: ReceivedEmail[];
  /** Resolves with the first message to this address that matches, waiting up to `timeoutMs`. */
  waitFor(to: string, match?: (email: ReceivedEmail) => boolean, timeoutMs?: number): Promise<ReceivedEmail>;
  /** While true, every message is refused with 451 (a server that is there but not taking mail). */
  refusing: boolean;
  close(): Promise<void>;
}

export async function startFakeSmtp(): Promise<FakeSmtp> {
  const messages: ReceivedEmail[] = [];
  const waiters = new Set<() => void>();
  const state = { refusing: false };
  const server = new SMTPServer({
    authOptional: true,
    // No STARTTLS: the test server has no certificate, and nodemailer upgrades whenever it is offered.
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onMailFrom(_address, _session, callback) {
      if (!state.refusing) return callback();
      callback(Object.assign(new Error("Mailbox unavailable, try again later"), { responseCode: 451 }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        messages.push({ ...parseEmail(raw), raw, envelopeTo: session.envelope.rcptTo.map((r) => r.address.toLowerCase()) });
        for (const wake of waiters) wake();
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;

  const find = (to: string, match: (email: ReceivedEmail) => boolean) => messages.find((m) => m.envelopeTo.includes(to.toLowerCase()) && match(m));

  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    get refusing() {
      return state.refusing;
    },
    set refusing(value: boolean) {
      state.refusing = value;
    },
    waitFor(to, match = () => true, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = find(to, match);
          if (!found) return false;
          waiters.delete(wake);
          clearTimeout(timer);
          resolve(found);
          return true;
        };
        const wake = () => void check();
        const timer = setTimeout(() => {
          waiters.delete(wake);
          reject(new Error(`No e-mail to ${to} within ${timeoutMs} ms (received: ${messages.map((m) => m.envelopeTo.join(",")).join("; ") || "none"})`));
        }, timeoutMs);
        waiters.add(wake);
        check();
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
