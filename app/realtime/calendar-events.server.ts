import type { Post } from "~/domain/calendar";
import { postEvents } from "~/models/post-events.server";
import { toPostJson } from "~/models/posts.server";

import { TEAM_ROOM, userRoom, type IoServer } from "./rooms.server";

/*
 * The content calendar live (decision 210): every committed change of a post goes out as
 * `postUpdated`, to the team room and to the customer's sockets (their user room, on every node
 * through the adapter) unless they may not see it. The customer's copy is their view of it: a
 * post taken back to draft reaches them once, as they last saw it, marked draft, so their
 * calendar drops it without learning what staff are changing. The event carries the API's shape
 * (`_id`, docs/api.md), written here as the API routes write it (decision 309).
 */

export function registerCalendarEvents(io: IoServer) {
  const onChanged = (post: Post, customerView: Post | null) => {
    const sent = toPostJson(post);
    io.to(TEAM_ROOM).emit("postUpdated", sent);
    if (customerView) io.to(userRoom(post.customer.id)).emit("postUpdated", customerView === post ? sent : toPostJson(customerView));
  };
  postEvents.on("changed", onChanged);
  const close = io.close.bind(io);
  io.close = (fn) => {
    postEvents.off("changed", onChanged);
    return close(fn);
  };
}
