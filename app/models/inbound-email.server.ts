import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import { simpleParser, type AddressObject } from "mailparser";

import { supportRoomId } from "~/domain/chat";
import { roleCovers } from "~/domain/clients";
import { db, schema } from "~/utils/db.server";
import { HttpError } from "~/utils/http.server";
import { logger } from "~/utils/logger.server";

import { discardUnsentAttachment, storeAttachmentBuffer } from "./chat-attachments.server";
import { postChatMessage, type ChatSender } from "./chat-send.server";
import { replySignatureValid, tokenIn } from "./reply-addresses.server";

/*
 * Replies by e-mail (docs/decisions/288). A chat notice to a customer member carries
 * `Reply-To: reply+<token>@INBOUND_DOMAIN` (reply-addresses.server.ts). The provider posts
 * the raw message here; the text above the quoted part becomes a message from that member in
 * their client's support thread, through the chat's own send path (so open sockets get it), and
 * each attachment a file message under the chat's limits. A Message-ID is taken once.
 */

const addressesOf = (field: AddressObject | AddressObject[] | undefined) =>
  [field ?? []].flat().flatMap((group) => group.value.flatMap((entry) => [entry.address ?? "", ...(entry.group ?? []).map((g) => g.address ?? "")]));

/** The member a verified token names, if they may still write in their client's thread. */
async function memberOf(memberId: string, signature: string) {
  const [row] = await db
    .select({
      id: schema.users.id,
      name: schema.users.name,
      role: schema.users.role,
      profileImage: schema.users.profileImage,
      disabledAt: schema.users.disabledAt,
      clientId: schema.clientMembers.clientId,
      clientRole: schema.clientMembers.role,
      removedAt: schema.clientMembers.removedAt,
    })
    .from(schema.users)
    .leftJoin(schema.clientMembers, eq(schema.clientMembers.userId, schema.users.id))
    .where(eq(schema.users.id, memberId))
    .limit(1);
  // A customer not yet moved into a client is the owner of a client of one with their own id.
  const clientId = row?.clientId ?? row?.id;
  if (!row || !clientId) return null;
  if (
    !replySignatureValid(memberId, clientId, signature) ||
    row.role !== "user" ||
    row.disabledAt ||
    row.removedAt ||
    !roleCovers(row.clientRole ?? "owner", "chat")
  )
    return null;
  return { ...row, clientId, clientRole: row.clientRole ?? "owner" };
}

const QUOTE_HEADERS = [
  /^On .+wrote:\s*$/,
  /^On .+$\n^.*wrote:\s*$/m,
  /^-{2,}\s*Original Message\s*-{2,}/i,
  /^_{5,}\s*$/,
  /^From: .+$/,
  /^Sent from my /,
  /^-- $/,
  /^Le .+a écrit\s*:\s*$/,
  /^Am .+schrieb .+:\s*$/,
];

/** The text above the quoted part: cut at "On … wrote:", a forwarded-message rule, a signature or the first quoted line. */
export function replyText(text: string): string {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  let end = lines.length;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const twoLines = `${line}\n${lines[i + 1] ?? ""}`;
    if (line.startsWith(">") || QUOTE_HEADERS.some((pattern) => pattern.test(line)) || /^On .+\n.*wrote:\s*$/.test(twoLines)) {
      end = i;
      break;
    }
  }
  return lines.slice(0, end).join("\n").trim();
}

export type InboundOutcome = { posted: number } | { duplicate: true };

/**
 * Takes one raw inbound message. 400 when it is not a reply to one of our addresses or has nothing
 * to post; 403 for a forged token or a member who may no longer write; a Message-ID already taken
 * posts nothing (`duplicate`).
 */
export async function receiveInboundEmail(raw: Buffer): Promise<InboundOutcome> {
  const mail = await simpleParser(raw, { skipHtmlToText: false, skipTextLinks: true }).catch(() => {
    throw new HttpError(400, "The body is not an e-mail message.", "INVALID_INPUT");
  });
  const header = (name: string) => [mail.headers.get(name) ?? []].flat().map(String);
  const token = tokenIn([...addressesOf(mail.to), ...addressesOf(mail.cc), ...header("delivered-to"), ...header("x-original-to")]);
  if (!token) throw new HttpError(400, "The message is not addressed to a reply address.", "INVALID_INPUT");
  const member = await memberOf(token.memberId, token.signature);
  if (!member) throw new HttpError(403, "This reply address is not valid, or its member can no longer write here.", "FORBIDDEN");

  const text = replyText(mail.text ?? "");
  const files = mail.attachments.filter((file) => file.contentDisposition !== "inline" || !file.related);
  if (!text && files.length === 0) throw new HttpError(400, "The reply has no text above the quoted message and no attachment.", "INVALID_INPUT");

  const messageId = (mail.messageId ?? `sha256:${crypto.createHash("sha256").update(raw).digest("hex")}`).slice(0, 500);
  const roomId = supportRoomId(member.clientId);
  const [claimed] = await db.insert(schema.inboundEmails).values({ messageId, userId: member.id, roomId }).onConflictDoNothing().returning();
  if (!claimed) return { duplicate: true };

  const sender: ChatSender & { clientId: string; clientRole: typeof member.clientRole } = {
    id: member.id,
    name: member.name,
    role: "user",
    profileImage: member.profileImage,
    clientId: member.clientId,
    clientRole: member.clientRole,
  };
  try {
    // Attachments are checked and stored first: a refused file posts nothing at all.
    const stored = [];
    for (const file of files) stored.push(await storeAttachmentBuffer(sender, roomId, { fileName: file.filename ?? "attachment", content: file.content }));
    let posted = 0;
    // No session carries an e-mailed reply: the token and the checks above stand for it.
    if (text) posted += await post(sender, { roomId, text });
    for (const attachment of stored) posted += await post(sender, { roomId, text: "", file: true, attachmentId: attachment.id }, attachment);
    logger.info({ memberId: member.id, roomId, posted }, "an e-mailed reply was posted in the chat");
    return { posted };
  } catch (error) {
    // Nothing (or not everything) was posted: the provider's retry of this Message-ID may try again.
    await db.delete(schema.inboundEmails).where(eq(schema.inboundEmails.messageId, messageId));
    throw error;
  }
}

async function post(
  sender: ChatSender,
  request: { roomId: string; text: string; file?: boolean; attachmentId?: string },
  attachment?: { id: string; storageKey: string },
) {
  const outcome = await postChatMessage(sender, request, "");
  if (outcome.ok) return 1;
  if (attachment) await discardUnsentAttachment(attachment);
  throw new HttpError(outcome.reason === "rate" ? 429 : 422, outcome.error, outcome.reason === "rate" ? "RATE_LIMITED" : "INVALID_INPUT");
}
