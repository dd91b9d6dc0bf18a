import type { z } from "zod";

import { supportRoomId } from "./chat";
import { clientNameBeside } from "./clients";
import { UUID_SOURCE } from "./ids";
import { extensionOf, REPORT_TYPES } from "./report";
import type { threadJson } from "./schemas/api";
import type { inboxRowJson } from "./schemas/inbox-row";

/** The support inbox's shapes and rules, shared by the store, the API, the socket server and the browser. */

/** A saved reply as the screens take it (decision 309): its id as `id`; the API sends it as SavedReplyJson. */
export interface SavedReply {
  id: string;
  title: string;
  body: string;
}

/** Staff's internal note on a customer's thread as the screens take it (decision 309): ids as `id`; the API sends it as NoteJson. */
export interface ThreadNote {
  id: string;
  /** Null once the author's account is gone. */
  author: { id: string; name: string } | null;
  body: string;
  createdAt: string;
}

export const THREAD_STATUSES = ["open", "closed"] as const;
export type ThreadStatus = (typeof THREAD_STATUSES)[number];

/**
 * One support thread as staff see it, the API's schema (app/domain/schemas/api.ts). `customer._id`
 * is the customer's account id, or for a contact-form visitor without an account the thread's own
 * id (docs/decisions/096-visitor-threads.md).
 */
export type Thread = z.infer<typeof threadJson>;

/**
 * Of two copies of one thread, the one to show: live updates reach a page by socket, page data by
 * HTTP, from any node, so an older copy can arrive after a newer one. Another thread replaces it.
 */
export function latestThread<T extends Thread | null>(current: T, incoming: T): T {
  if (!current || !incoming || current._id !== incoming._id) return incoming;
  return incoming.updatedAt >= current.updatedAt ? incoming : current;
}

/** One row of staff's inbox list: what the row shows of a thread (decision 320), its schema inboxRowJson. */
export type InboxRow = z.infer<typeof inboxRowJson>;

/**
 * How much of a last message a row carries: more than the widest list shows on its one line (the
 * list is the page's whole width from 640 to 1023 px), where the rest is cut with an ellipsis anyway.
 */
export const ROW_PREVIEW_CHARS = 140;

/** A message as one line of at most ROW_PREVIEW_CHARS characters: a row's line shows runs of white space as one space. */
function previewText(message: string): string {
  const flat = message.replace(/\s+/g, " ").trim();
  if (flat.length <= ROW_PREVIEW_CHARS) return flat;
  const chars = Array.from(flat);
  return chars.length <= ROW_PREVIEW_CHARS ? flat : `${chars.slice(0, ROW_PREVIEW_CHARS).join("").trimEnd()}…`;
}

/** A thread as its inbox row: the page's loader sends these, and the list turns each live `threadUpdated` into one. */
export function toInboxRow(thread: Thread): InboxRow {
  const last = thread.lastMessage;
  const client = clientNameBeside(thread.customer.name, thread.client);
  const at = last ? Date.parse(last.createdAt) : undefined;
  const updated = Date.parse(thread.updatedAt);
  return {
    id: thread.customer._id,
    name: thread.customer.name,
    ...(client ? { client } : {}),
    email: thread.customer.email,
    ...(thread.kind === "visitor" ? { visitor: true as const } : {}),
    ...(last
      ? {
          at,
          text: previewText(last.message),
          ...(last.senderId._id === thread.customer._id ? {} : { by: last.senderId.name }),
          ...(last.messageType === "file" ? { file: true as const } : {}),
        }
      : {}),
    ...(thread.unread > 0 ? { unread: thread.unread } : {}),
    ...(thread.status === "closed" ? { closed: true as const } : {}),
    ...(thread.assignee ? { assignee: thread.assignee.name } : {}),
    ...(updated === at ? {} : { updated }),
  };
}

/** When a row's thread last changed (its `updated`, else its last message's time). */
export const inboxRowUpdated = (row: InboxRow) => row.updated ?? row.at ?? 0;

/** A row's chat room, which typing indicators name: a customer's support room, or a visitor's. */
export const inboxRowRoom = (row: InboxRow) => (row.visitor ? visitorRoomId(row.id) : supportRoomId(row.id));

/** A page of a thread's words (the inbox search) holds about this many before the next page opens (docs/decisions/337). */
export const THREAD_WORDS_PER_PAGE = 400;
export const INBOX_PAGE_SIZE = 25;
export const INBOX_MAX_PAGE_SIZE = 100;
export const INBOX_FILTERS = ["all", "unassigned", "mine", "closed"] as const;
export type InboxFilter = (typeof INBOX_FILTERS)[number];

/** A visitor's room: the thread id after "visitor-". Only staff are members (over HTTP, never a socket room). */
export const visitorRoomId = (threadId: string) => `visitor-${threadId}`;
const VISITOR_ROOM = new RegExp(`^visitor-(${UUID_SOURCE})$`, "i");
export const isVisitorRoom = (roomId: string) => VISITOR_ROOM.test(roomId);

/** One `typing` per socket per this long; the rest are dropped. */
export const TYPING_THROTTLE_MS = 2000;
/** How long a "typing…" stays on screen without a new `typing`. */
export const TYPING_SHOWN_MS = 4000;

/* Attachments: the report rules (10 MiB, content checked, the same types) plus gif and webp, as the contract says. */
export const ATTACHMENT_TYPES: Readonly<Record<string, string>> = {
  ...REPORT_TYPES,
  gif: "image/gif",
  webp: "image/webp",
};
export const ATTACHMENT_ACCEPT = Object.keys(ATTACHMENT_TYPES)
  .map((e) => `.${e}`)
  .join(",");
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;
export const ATTACHMENT_MESSAGES = {
  file: "Please select a file to send",
  size: "File size must be less than 10MB",
  type: "Please send only images (JPG, PNG, GIF, WebP), PDF or Word (DOC, DOCX) files",
  room: "Conversation not found.",
  roomRequired: "roomId is required: the conversation the file is for.",
} as const;

export const isImage = (mimeType: string) => mimeType.startsWith("image/");

/** What a file chip calls an attachment: "Image", "PDF" or "Word document". */
export function attachmentKind(mimeType: string): string {
  if (isImage(mimeType)) return "Image";
  if (mimeType === "application/pdf") return "PDF";
  return "Word document";
}

/** The browser's first look (the server checks the content too). */
export function checkAttachmentFile(file: { name: string; size: number }): string | undefined {
  if (file.size === 0) return ATTACHMENT_MESSAGES.file;
  if (file.size > MAX_ATTACHMENT_BYTES) return ATTACHMENT_MESSAGES.size;
  if (!ATTACHMENT_TYPES[extensionOf(file.name)]) return ATTACHMENT_MESSAGES.type;
  return undefined;
}

/**
 * The placeholders a saved reply may hold, filled with the customer's (or visitor's) details when
 * the reply is inserted in the message box (browser) or sent from the form (server): never sent
 * as written. Docs: the saved replies page lists them.
 */
export const SAVED_REPLY_PLACEHOLDERS = {
  "{name}": "the customer's name",
  "{first_name}": "their first name",
  "{email}": "their e-mail address",
} as const;

const PLACEHOLDER = /\{\s*(name|first_name|email)\s*\}/gi;

/** A saved reply's text with its placeholders filled in for `person`; a visitor who gave no name is "there" ("Hi there"). */
export function fillReplyPlaceholders(text: string, person: { name: string | null; email: string | null }): string {
  const name = person.name?.trim() || "there";
  const values: Record<string, string> = { name, first_name: name.split(/\s+/)[0]!, email: person.email?.trim() ?? "" };
  return text.replace(PLACEHOLDER, (_, key: string) => values[key.toLowerCase()]!);
}
