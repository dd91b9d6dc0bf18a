import type { z } from "zod";

import { UUID_SOURCE } from "./ids";
import type { chatAttachmentJson, chatMessageJson } from "./schemas/api";

/** Chat shapes and rules shared by the store, the socket server and the browser. */

/*
 * A message as the socket events, the API and the screens carry it: the types are the API's
 * schemas (app/domain/schemas/api.ts), so a field added there reaches every reader.
 */
export type ChatMessage = z.infer<typeof chatMessageJson>;
export type ChatUser = ChatMessage["senderId"];
/** A `file` message's attachment, served at attachmentPath(_id). */
export type ChatAttachment = z.infer<typeof chatAttachmentJson>;

/** A thread as a page's loader reads it (the chat without JavaScript): the newest page, or with `?before=<id>` the page before that message. */
export interface ChatThreadPage {
  messages: ChatMessage[];
  /** Older messages exist: "Show earlier messages" links to `?before=<first id>`. */
  hasEarlier: boolean;
  /** The message this page ends before (an older page is shown), else null. */
  before: string | null;
}

/** An attachment's stable address: it asks the session on every request (docs/decisions/180). */
export const attachmentPath = (attachmentId: string) => `/files/chat/${attachmentId}`;

/** Message limits, shared so the input can stop what the server would refuse. */
export const MESSAGE_MAX_LENGTH = 2000;
export const MESSAGE_RATE = { points: 20, windowMs: 10_000 };

export const CHAT_ERRORS = {
  empty: "Message cannot be empty.",
  tooLong: `Message must be at most ${MESSAGE_MAX_LENGTH.toLocaleString("en-US")} characters.`,
  rate: "You are sending messages too fast. Please wait a few seconds.",
  room: "You cannot join this conversation.",
  service: "That service was not found.",
  invalid: "Invalid message.",
  failed: "Message could not be sent. Please try again.",
  attachment: "That attachment was not found. Please upload it again.",
  /** The sender's session ended between the page and the send. */
  session: "Your session has ended. Please sign in again.",
} as const;

/*
 * Room ids: a customer's support thread is `support-{customerId}`; a direct room is two user ids,
 * sorted, joined by "-". This is the one builder and the one parser.
 */
const SUPPORT_ROOM = new RegExp(`^support-(${UUID_SOURCE})$`, "i");
const DIRECT_ROOM = new RegExp(`^(${UUID_SOURCE})-(${UUID_SOURCE})$`, "i");

export type Room = { kind: "support"; customerId: string } | { kind: "direct"; members: [string, string] };

export function supportRoomId(customerId: string) {
  return `support-${customerId}`;
}

export function directRoomId(a: string, b: string) {
  return [a, b].sort().join("-");
}

/** The room an id names, or null when it names none (malformed, or a direct room not in sorted order). */
export function parseRoomId(roomId: unknown): Room | null {
  if (typeof roomId !== "string") return null;
  const support = SUPPORT_ROOM.exec(roomId);
  if (support) return { kind: "support", customerId: support[1]! };
  const direct = DIRECT_ROOM.exec(roomId);
  if (direct && direct[1]! < direct[2]!) return { kind: "direct", members: [direct[1]!, direct[2]!] };
  return null;
}

/** The customer whose support thread a room is, or null. */
export const supportCustomerId = (roomId: string) => {
  const room = parseRoomId(roomId);
  return room?.kind === "support" ? room.customerId : null;
};
