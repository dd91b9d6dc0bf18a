import { EventEmitter } from "node:events";

import type { Post } from "~/domain/calendar";

/*
 * Changes to content calendar posts, after the commit: the socket layer (app/realtime) listens and
 * sends `postUpdated` to the team room and, when the customer may see it, to the customer's
 * sockets, in the wire's shape (decision 309). Models cannot import the socket server; this keeps
 * every writer on one path.
 */

interface PostEventMap {
  /** The post as staff see it, and as its customer sees it (null: the customer is not told). */
  changed: [post: Post, customerView: Post | null];
}

export const postEvents = new EventEmitter<PostEventMap>();
// One listener per attached socket server; tests attach several in one process.
postEvents.setMaxListeners(50);
