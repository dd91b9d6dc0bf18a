import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import nodemailer, { type Transporter } from "nodemailer";

import type { NotificationKind } from "~/domain/notifications";

import { db, schema, type Tx } from "./db.server";
import { env } from "./env.server";
import { defineJob, jobs, type RunningJob } from "./jobs.server";
import { logger } from "./logger.server";
import { unsubscribeUrl } from "./unsubscribe-links.server";

/** What an e-mail says (stored as it is, rendered when it is sent). */
export type Email = schema.EmailMessage;

let transport: Transporter | undefined;

function smtpTransport() {
  // Bounded waits: a server that accepts the connection and then says nothing fails the attempt
  // (the job retries it later) instead of holding it for nodemailer's default of minutes.
  transport ??= nodemailer.createTransport({ url: env.smtpUrl, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 });
  return transport;
}

/** What the e-mail is about, for the staff's pages (an order's, a customer's). */
export interface EmailAbout {
  /** Store it (and its sending job) in this transaction: it exists only if the change commits. */
  tx?: Tx;
  orderId?: string;
  /** The account it is for; by default the account of its first recipient, if there is one. */
  userId?: string;
}

/*
 * Every e-mail is a row first and is then sent by a job (docs/decisions/271): retried with backoff
 * for more than a day while SMTP fails, sent by one node, kept across restarts. Without SMTP_URL the
 * same job writes an .eml file to the outbox.
 */
const EMAIL_JOB = defineJob<{ emailId: string }>({
  kind: "email",
  // 30 s doubling (with jitter): the 12th retry comes 34 to 68 hours after the first attempt.
  retryLimit: 12,
  retryDelaySeconds: 30,
  // Longer than the SMTP timeouts above: an attempt still running is never taken over.
  leaseSeconds: 120,
  run: ({ emailId }, job) => deliverStoredEmail(emailId, job),
});

/**
 * Stores the e-mail and its sending job (in `about.tx` when given) and answers their ids. Outside a
 * transaction it is also sent at once, while the caller waits (a reset link arrives in seconds):
 * if that attempt fails the job tries again later. Inside one, send it after the commit with
 * `sendStoredEmails`.
 */
export async function sendEmail(email: Email, about: EmailAbout = {}): Promise<{ id: string; jobId: string }> {
  const stored = about.tx ? await storeEmail(about.tx, email, about) : await db.transaction((tx) => storeEmail(tx, email, about));
  if (!about.tx) await sendStoredEmails([stored.jobId]);
  return stored;
}

/** Sends e-mails stored in a transaction that has committed, now, on this node (each once). */
export async function sendStoredEmails(jobIds: string[]) {
  for (const jobId of jobIds) {
    await jobs.runNow(EMAIL_JOB.kind, jobId).catch((error: unknown) => logger.warn({ err: error, job: jobId }, "an e-mail stays queued"));
  }
}

/** A stored e-mail sent again (a staff action): a new job for the same row. Answers false for an unknown id. */
export async function resendStoredEmail(emailId: string) {
  const jobId = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(schema.emails)
      .set({ state: "queued", lastError: null, updatedAt: new Date() })
      .where(eq(schema.emails.id, emailId))
      .returning({ id: schema.emails.id });
    return row ? jobs.enqueue(EMAIL_JOB.kind, { emailId }, { tx }) : null;
  });
  if (!jobId) return false;
  await sendStoredEmails([jobId]);
  return true;
}

async function storeEmail(tx: Tx, email: Email, about: EmailAbout) {
  const recipients = [email.to].flat();
  const first = recipients[0]!.toLowerCase();
  const [row] = await tx
    .insert(schema.emails)
    .values({
      recipient: recipients.join(", "),
      subject: email.subject,
      message: email,
      orderId: about.orderId ?? null,
      userId: about.userId ?? sql`(select ${schema.users.id} from ${schema.users} where lower(${schema.users.email}) = ${first} limit 1)`,
    })
    .returning({ id: schema.emails.id });
  const jobId = await jobs.enqueue(EMAIL_JOB.kind, { emailId: row!.id }, { tx });
  return { id: row!.id, jobId };
}

async function deliverStoredEmail(emailId: string, job: RunningJob) {
  const [row] = await db.select().from(schema.emails).where(eq(schema.emails.id, emailId));
  // Gone (its account was deleted) or already sent by an earlier run of this job: nothing to do.
  if (!row || row.state === "sent") return;
  // Its recipient turned this kind of e-mail off (a security e-mail has no kind and always goes).
  if (row.message.category && row.message.category !== "security" && row.userId && (await turnedOff(row.userId, row.message.category))) {
    await db
      .update(schema.emails)
      .set({ state: "sent", lastError: "Not sent: its recipient turned these e-mails off.", updatedAt: new Date() })
      .where(eq(schema.emails.id, emailId));
    return;
  }
  try {
    await transmit(row.message, row.userId);
  } catch (error) {
    await db
      .update(schema.emails)
      .set({
        state: job.lastAttempt ? "failed" : "retrying",
        attempts: sql`${schema.emails.attempts} + 1`,
        lastError: error instanceof Error ? error.message : String(error),
        updatedAt: new Date(),
      })
      .where(eq(schema.emails.id, emailId));
    throw error;
  }
  await db
    .update(schema.emails)
    .set({ state: "sent", attempts: sql`${schema.emails.attempts} + 1`, lastError: null, sentAt: new Date(), updatedAt: new Date() })
    .where(eq(schema.emails.id, emailId));
}

let outboxSequence = 0;

async function turnedOff(userId: string, kind: NotificationKind) {
  const [row] = await db
    .select({ choice: sql<string | null>`${schema.notificationSettings.email} ->> ${kind}` })
    .from(schema.notificationSettings)
    .where(eq(schema.notificationSettings.userId, userId));
  return row?.choice === "off";
}

/**
 * The one place an e-mail's headers are made. Every e-mail but a security one, to an account, carries
 * RFC 8058's one-click unsubscribe for its kind (docs/decisions/291).
 */
export function unsubscribeHeaders(email: Email, userId: string | null): Record<string, string> {
  if (!userId || !email.category || email.category === "security") return {};
  return { "List-Unsubscribe": `<${unsubscribeUrl(userId, email.category)}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" };
}

/** Sends over SMTP with SMTP_URL; otherwise writes an .eml file to the outbox and logs its links. */
async function transmit(email: Email, userId: string | null) {
  const message = {
    from: env.mailFrom,
    to: email.to,
    headers: unsubscribeHeaders(email, userId),
    ...(email.replyTo ? { replyTo: email.replyTo } : {}),
    subject: email.subject,
    text: renderText(email),
    html: renderHtml(email),
  };
  if (env.smtpUrl) {
    await smtpTransport().sendMail(message);
    return;
  }
  const raw = await nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" }).sendMail(message);
  await fs.mkdir(env.outboxDir, { recursive: true });
  const recipient = (Array.isArray(email.to) ? email.to[0] : email.to).replace(/[^a-z0-9@._-]/gi, "_");
  // Named so that a listing sorts in the order written, even within one millisecond.
  const written = String(++outboxSequence % 1_000_000).padStart(6, "0");
  const file = path.join(
    env.outboxDir,
    `${new Date().toISOString().replace(/[:.]/g, "-")}-${written}-${recipient}-${crypto.randomBytes(3).toString("hex")}.eml`,
  );
  await fs.writeFile(file, raw.message as Buffer);
  logger.info({ to: email.to, subject: email.subject, file, link: email.action?.url }, "e-mail written to outbox");
}

function escapeHtml(value: string) {
  return value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

export function renderText(email: Email) {
  return [
    email.heading,
    "",
    ...email.paragraphs.flatMap((p) => [p, ""]),
    ...(email.action ? [`${email.action.label}: ${email.action.url}`, ""] : []),
    email.footer ?? "— The BrandLift team",
  ].join("\n");
}

export function renderHtml(email: Email) {
  const paragraphs = email.paragraphs.map((p) => `<p style="margin:0 0 16px;font-size:16px;line-height:24px;color:#334155">${escapeHtml(p)}</p>`).join("");
  const action = email.action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(email.action.url)}" style="display:inline-block;background:#4f46e5;color:#ffffff;text-decoration:none;font-weight:600;padding:12px 24px;border-radius:8px">${escapeHtml(email.action.label)}</a></p>
       <p style="margin:0 0 16px;font-size:13px;color:#64748b">Or paste this link into your browser: ${escapeHtml(email.action.url)}</p>`
    : "";
  return `<!doctype html><html><body style="margin:0;background:#f1f5f9;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:32px 16px">
<table role="presentation" width="100%" style="max-width:560px;background:#ffffff;border-radius:12px;padding:32px">
<tr><td><p style="margin:0 0 24px;font-size:20px;font-weight:800;color:#4f46e5">BrandLift</p>
<h1 style="margin:0 0 16px;font-size:22px;color:#0f172a">${escapeHtml(email.heading)}</h1>
${paragraphs}${action}
<p style="margin:32px 0 0;font-size:13px;color:#64748b">${escapeHtml(email.footer ?? "— The BrandLift team")}</p>
</td></tr></table></td></tr></table></body></html>`;
}
