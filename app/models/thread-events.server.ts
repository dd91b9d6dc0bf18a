import { EventEmitter } from "node:events";

import type { Thread } from "~/domain/inbox";

/*
 * What changed in support threads, after the commit: the socket layer (app/realtime) listens and
 * tells the team (`threadUpdated`) and the thread's members (`read`). Models cannot import the
 * socket server, and this keeps every writer (socket, HTTP, contact form) on one path.
 */

export interface ReadReceipt {
  roomId: string;
  userId: string;
  messageId: string;
  customerId: string | null;
}

interface ThreadEventMap {
  /** The thread's last message, unread count, status or assignee changed; with the thread when the writer has it. */
  changed: [roomId: string, thread?: Thread];
  read: [receipt: ReadReceipt];
}

export const threadEvents = new EventEmitter<ThreadEventMap>();
// One listener per attached socket server; tests attach several in one process.
threadEvents.setMaxListeners(50);
