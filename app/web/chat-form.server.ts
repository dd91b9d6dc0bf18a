import { data, redirect } from "@remix-run/node";

import type { ChatThreadPage } from "~/domain/chat";
import { isUuid } from "~/domain/ids";
import { can, ownerKey, type Actor } from "~/domain/permissions";
import { discardUnsentAttachment, receiveMessageForm } from "~/models/chat-attachments.server";
import { postChatMessage, type RefusedSend } from "~/models/chat-send.server";
import { CONVERSATION_PAGE_SIZE, getRoomMessages } from "~/models/chat.server";
import { getOtherSideReceipt } from "~/models/inbox.server";
import { HttpError } from "~/utils/http.server";
import type { Identity } from "~/web/auth.server";
import { readFormData } from "~/web/body-limit.server";
import { pageNotFound } from "~/web/guards.server";

/*
 * The chat on a page (the customer's Messages, a thread of the staff inbox) without JavaScript, or
 * while its socket is not connected: the thread is read by the loader, and a plain form posts a
 * message (with a file) through the same checks, store and live delivery as a socket's send
 * (models/chat-send.server.ts, models/chat-attachments.server.ts). Decision 266.
 */

/** What a page shows of a thread: the newest page, or with `?before=<id>` the page before that message. */
export async function loadChatThreadPage(roomId: string, request: Request): Promise<ChatThreadPage> {
  const asked = new URL(request.url).searchParams.get("before");
  const before = asked && isUuid(asked) ? asked : null;
  // One more than a page tells whether there is anything earlier.
  const older = before ? await getRoomMessages(roomId, { before }, CONVERSATION_PAGE_SIZE + 1) : null;
  // An id that is no message of this room: the newest page.
  const rows = older ?? (await getRoomMessages(roomId, {}, CONVERSATION_PAGE_SIZE + 1)) ?? [];
  const hasEarlier = rows.length > CONVERSATION_PAGE_SIZE;
  return { messages: hasEarlier ? rows.slice(1) : rows, hasEarlier, before: older ? before : null };
}

const REFUSAL_STATUS: Record<RefusedSend["reason"], number> = {
  rate: 429,
  invalid: 400,
  room: 404,
  service: 400,
  attachment: 400,
  session: 401,
};

/** A refused message form: the words shown above the box, with the answer's status. */
export interface MessageFormError {
  error: string;
  status: number;
  /** The text that was sent, to put back in the box. */
  text: string;
}

/** How a page's message form is sent: `fill` rewrites the text first (staff: saved-reply placeholders); `serviceId` is the service it is about. */
export interface MessageFormOptions {
  fill?: (text: string) => string;
  serviceId?: string | null;
}

/**
 * Sends the message form's `message` (and its `file`, when one was chosen) to `roomId` as the
 * signed-in `identity`. Null when it was sent; otherwise the refusal, and nothing is kept (a
 * received file is removed).
 */
export async function sendMessageForm(
  identity: Identity,
  request: Request,
  roomId: string,
  { fill = (text) => text, serviceId = null }: MessageFormOptions = {},
): Promise<MessageFormError | null> {
  let received: Awaited<ReturnType<typeof receiveMessageForm>>;
  try {
    received = (request.headers.get("Content-Type") ?? "").toLowerCase().startsWith("multipart/form-data")
      ? await receiveMessageForm(identity.user, request, roomId)
      : { fields: Object.fromEntries([...(await readFormData(request))].map(([k, v]) => [k, String(v)])), attachment: null };
  } catch (error) {
    if (error instanceof HttpError) return { error: error.message, status: error.status, text: "" };
    throw error;
  }
  const { fields, attachment } = received;
  const text = fill(fields.message ?? "");
  const sent = await postChatMessage(identity.user, { roomId, text, file: !!attachment, attachmentId: attachment?.id, serviceId }, identity.sessionId).catch(
    async (error: unknown) => {
      if (attachment) await discardUnsentAttachment(attachment);
      throw error;
    },
  );
  if (sent.ok) return null;
  if (attachment) await discardUnsentAttachment(attachment);
  return { error: sent.error, status: REFUSAL_STATUS[sent.reason], text: fields.message ?? "" };
}

/** What a page with the chat reads of its thread: the page of messages and the other side's read receipt. */
export async function loadChatOnPage(roomId: string, viewer: { role: "user" | "team" }, request: Request) {
  const [seenId, thread] = await Promise.all([getOtherSideReceipt(roomId, viewer), loadChatThreadPage(roomId, request)]);
  return { seenId, thread };
}

/**
 * A page's message form answered: sent, the same page again at its newest messages (without a saved
 * reply put in); refused, the reason and the text to put back in the box, with the refusal's status.
 */
export async function answerMessageForm(identity: Identity, request: Request, roomId: string, options?: MessageFormOptions) {
  const refused = await sendMessageForm(identity, request, roomId, options);
  if (refused) return data({ error: refused.error, draft: refused.text }, { status: refused.status });
  const here = new URL(request.url);
  here.searchParams.delete("insert");
  here.searchParams.delete("before");
  here.searchParams.delete("index");
  return redirect(`${here.pathname}${here.search}`);
}

/**
 * Whose support thread a service's or plan's Message tab shows: a customer's, their client's own
 * (whoever bought it); staff, the buyer's. A role without the chat (a billing member) gets the page's 404.
 */
export function threadKeyFor(user: Actor, buyerId: string | null): string {
  const key = can(user, "area:customer") ? ownerKey(user) : (buyerId ?? user.id);
  if (!can(user, "chat:read-conversation", { ownerId: key })) throw pageNotFound();
  return key;
}
