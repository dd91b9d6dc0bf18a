import { EventEmitter } from "node:events";

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
  /** The thread's last message, unread count, status or assignee changed. */
  changed: [roomId: string];
  read: [receipt: ReadReceipt];
}

export const threadEvents = new EventEmitter<ThreadEventMap>();
// One listener per attached socket server; tests attach several in one process.
threadEvents.setMaxListeners(50);
