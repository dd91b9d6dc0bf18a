import { EventEmitter } from "node:events";

import type { ChatMessage } from "~/domain/chat";
import type { Thread } from "~/domain/inbox";

/*
 * What changed in support threads, after the commit: the socket layer (app/realtime) listens and
 * tells the team (`threadUpdated`), the thread's members (`read`) and, for a message sent by a
 * page's form, the room (`supportMessage`/`newMessage`, as a socket's send). Models cannot import the
 * socket server, and this keeps every writer (socket, HTTP, contact form) on one path.
 */

export interface ReadReceipt {
  roomId: string;
  userId: string;
  messageId: string;
  customerId: string | null;
}

/** Whom a sent message goes to: its support thread's customer, or a direct room's other member. */
export interface Delivery {
  customerId: string | null;
  otherMember: string | null;
  senderId: string;
  senderName: string;
  /** A team member wrote: the customer is e-mailed when no socket of theirs is open. */
  fromTeam: boolean;
  /** Whom the message's notifications went to: for a staff reply, the client's members who chat (the customer, for a client without member rows). */
  notifiedUserIds: string[];
}

interface ThreadEventMap {
  /** The thread's last message, unread count, status or assignee changed; with the thread when the writer has it. */
  changed: [roomId: string, thread?: Thread];
  read: [receipt: ReadReceipt];
  /** A message sent from a page's form (not a socket): the socket layer delivers it live. */
  posted: [message: ChatMessage, delivery: Delivery];
}

export const threadEvents = new EventEmitter<ThreadEventMap>();
// One listener per attached socket server; tests attach several in one process.
threadEvents.setMaxListeners(50);
