import { sql } from "drizzle-orm";
import { check, customType, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

import { THREAD_STATUSES, type ThreadStatus } from "../../app/domain/inbox";
import { briefs } from "./briefs";
import { chatMessages, users } from "./core";

/*
 * The support inbox (docs/decisions/095-thread-summary.md): one summary row per support
 * thread, written in the same transaction as every message of that thread, so the inbox and the
 * unread badges never scan messages. A thread belongs to a customer account (`support-{id}`) or,
 * for a contact-form visitor without an account, to an e-mail address (`visitor-{threadId}`).
 */

const id = () =>
  uuid("id")
    .primaryKey()
    .default(sql`gen_random_uuid()`);
/** A PostgreSQL text-search document (written with SQL: `to_tsvector`, `||`, `strip`). */
const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });
const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();

export const chatThreads = pgTable(
  "chat_threads",
  {
    id: id(),
    roomId: text("room_id").notNull().unique(),
    customerId: uuid("customer_id")
      .unique()
      .references(() => users.id, { onDelete: "cascade" }),
    /** A visitor's thread: the address they gave (lower case) and the name, if any. */
    visitorEmail: text("visitor_email"),
    visitorName: text("visitor_name"),
    status: text("status").$type<ThreadStatus>().notNull().default("open"),
    assigneeId: uuid("assignee_id").references(() => users.id, { onDelete: "set null" }),
    lastMessageId: uuid("last_message_id").references(() => chatMessages.id, { onDelete: "set null" }),
    lastMessageAt: timestamp("last_message_at", { withTimezone: true }),
    /** Customer (or visitor) messages no staff member has read or answered yet. */
    teamUnread: integer("team_unread").notNull().default(0),
    /** Staff replies the customer has not read yet. */
    customerUnread: integer("customer_unread").notNull().default(0),
    /** The newest message each side has read: the read receipts ("Seen") shown after a reload. */
    teamReadMessageId: uuid("team_read_message_id"),
    customerReadMessageId: uuid("customer_read_message_id"),
    /**
     * A visitor's name and address as text-search words (written when the visitor writes, rarely after).
     * The messages' words are in `chat_thread_words`, so a message never rewrites this row's document.
     */
    searchDocument: tsvector("search_document")
      .notNull()
      .default(sql`''::tsvector`),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("chat_threads_latest_idx").on(sql`${t.lastMessageAt} desc nulls last`, sql`${t.id} desc`),
    index("chat_threads_status_latest_idx").on(t.status, sql`${t.lastMessageAt} desc nulls last`),
    index("chat_threads_assignee_idx").on(t.assigneeId),
    index("chat_threads_search_idx").using("gin", t.searchDocument),
    index("chat_threads_team_unread_idx")
      .on(t.customerId)
      .where(sql`${t.teamUnread} > 0`),
    uniqueIndex("chat_threads_visitor_email_idx")
      .on(t.visitorEmail)
      .where(sql`${t.customerId} is null`),
    check("chat_threads_status_check", sql.raw(`"status" in (${THREAD_STATUSES.map((s) => `'${s}'`).join(", ")})`)),
    check("chat_threads_owner_check", sql`${t.customerId} is not null or ${t.visitorEmail} is not null`),
  ],
);

/**
 * The words of a thread's messages for the inbox search (docs/decisions/337), in pages of a few hundred
 * words: a message adds the words its thread's newest page lacks to that page, or opens the next one
 * when the newest is full, so storing a message costs the same on a thread's first day and after years.
 * A search finds a thread when each word it asks for is on one of its pages (or in its visitor document).
 */
export const chatThreadWords = pgTable(
  "chat_thread_words",
  {
    threadId: uuid("thread_id")
      .notNull()
      .references(() => chatThreads.id, { onDelete: "cascade" }),
    page: integer("page").notNull(),
    document: tsvector("document").notNull(),
  },
  (t) => [primaryKey({ columns: [t.threadId, t.page] }), index("chat_thread_words_document_idx").using("gin", t.document)],
);

/** Files sent in a thread. message_id is set when the `file` message is sent; until then only the uploader sees it. */
export const chatAttachments = pgTable(
  "chat_attachments",
  {
    id: id(),
    roomId: text("room_id").notNull(),
    uploaderId: uuid("uploader_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    messageId: uuid("message_id").references(() => chatMessages.id, { onDelete: "cascade" }),
    /** Set while a brief's file answer names it: kept (never swept as unsent), open to the room's members. */
    briefId: uuid("brief_id").references(() => briefs.id, { onDelete: "set null" }),
    storageKey: text("storage_key").notNull().unique(),
    fileName: text("file_name").notNull(),
    mimeType: text("mime_type").notNull(),
    fileSize: integer("file_size").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("chat_attachments_message_idx").on(t.messageId), index("chat_attachments_room_idx").on(t.roomId)],
);
