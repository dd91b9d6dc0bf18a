/**
 * Reads the e-mails the app sends (raw RFC 822 text from the outbox or the fake SMTP server):
 * headers, the decoded text part and the links in it. No dependency, so Playwright specs can use it.
 */

export interface ParsedEmail {
  subject: string;
  to: string;
  replyTo: string;
  text: string;
  html: string;
  links: string[];
}

function decodeQuotedPrintable(body: string) {
  const bytes = body.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, "latin1").toString("utf8");
}

function decodePart(headers: string, body: string) {
  const encoding = /content-transfer-encoding:\s*([\w-]+)/i.exec(headers)?.[1]?.toLowerCase();
  if (encoding === "base64") return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
  if (encoding === "quoted-printable") return decodeQuotedPrintable(body);
  return body;
}

function splitHead(raw: string): [string, string] {
  const index = raw.search(/\r?\n\r?\n/);
  if (index < 0) return [raw, ""];
  return [raw.slice(0, index), raw.slice(index).replace(/^\r?\n\r?\n/, "")];
}

function header(head: string, name: string) {
  const unfolded = head.replace(/\r?\n[ \t]+/g, " ");
  const value = new RegExp(`^${name}:\\s*(.*)$`, "im").exec(unfolded)?.[1] ?? "";
  // RFC 2047 encoded words, as nodemailer writes non-ASCII subjects.
  return value.replace(/=\?utf-8\?([bq])\?([^?]*)\?=/gi, (_m, kind: string, text: string) =>
    kind.toLowerCase() === "b" ? Buffer.from(text, "base64").toString("utf8") : decodeQuotedPrintable(text.replace(/_/g, " ")),
  );
}

export function parseEmail(raw: string): ParsedEmail {
  const [head, body] = splitHead(raw);
  const parts: { type: string; content: string }[] = [];
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(head.replace(/\r?\n[ \t]+/g, " "))?.[1];
  if (boundary) {
    for (const chunk of body.split(`--${boundary}`).slice(1)) {
      if (chunk.startsWith("--")) break;
      const [partHead, partBody] = splitHead(chunk.replace(/^\r?\n/, ""));
      parts.push({ type: header(partHead, "content-type").toLowerCase(), content: decodePart(partHead, partBody) });
    }
  } else {
    parts.push({ type: header(head, "content-type").toLowerCase(), content: decodePart(head, body) });
  }
  const text = parts.find((p) => p.type.startsWith("text/plain"))?.content ?? "";
  const html = parts.find((p) => p.type.startsWith("text/html"))?.content ?? "";
  return {
    subject: header(head, "subject"),
    to: header(head, "to"),
    replyTo: header(head, "reply-to"),
    text,
    html,
    links: [...new Set(text.match(/https?:\/\/[^\s<>"]+/g) ?? [])],
  };
}

/** The set-password or reset link of an account e-mail. */
export function passwordLinkIn(raw: string): string {
  const link = parseEmail(raw).links.find((l) => l.includes("/reset-password?token="));
  if (!link) throw new Error(`No /reset-password link in this e-mail:\n${raw.slice(0, 2000)}`);
  return link;
}
