import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import nodemailer, { type Transporter } from "nodemailer";

import { env } from "./env.server";
import { logger } from "./logger.server";

/** An address, or a name and address (nodemailer quotes the name). */
type Mailbox = string | { name: string; address: string };

export interface Email {
  to: string | string[];
  /** Where a reply goes when it should reach a person rather than MAIL_FROM (a visitor, the team). */
  replyTo?: Mailbox | Mailbox[];
  subject: string;
  /** Plain paragraphs and an optional call to action; rendered to branded HTML and to text. */
  heading: string;
  paragraphs: string[];
  action?: { label: string; url: string };
  footer?: string;
}

let transport: Transporter | undefined;

function smtpTransport() {
  transport ??= nodemailer.createTransport(env.smtpUrl);
  return transport;
}

/** Sends over SMTP with SMTP_URL; otherwise writes an .eml file to the outbox and logs its links. */
export async function sendEmail(email: Email) {
  const message = {
    from: env.mailFrom,
    to: email.to,
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
  const file = path.join(env.outboxDir, `${new Date().toISOString().replace(/[:.]/g, "-")}-${recipient}-${crypto.randomBytes(3).toString("hex")}.eml`);
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
