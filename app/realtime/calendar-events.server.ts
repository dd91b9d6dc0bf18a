import type { PostJson } from "~/domain/schemas/calendar";
import { postEvents } from "~/models/post-events.server";

import { TEAM_ROOM, userRoom, type IoServer } from "./rooms.server";

/*
 * The content calendar live (decision 210): every committed change of a post goes out as
 * `postUpdated`, to the team room and to the customer's sockets (their user room, on every node
 * through the adapter) unless they may not see it. The customer's copy is their view of it: a
 * post taken back to draft reaches them once, as they last saw it, marked draft, so their
 * calendar drops it without learning what staff are changing.
 */

export function registerCalendarEvents(io: IoServer) {
  const onChanged = (post: PostJson, customerView: PostJson | null) => {
    io.to(TEAM_ROOM).emit("postUpdated", post);
    if (customerView) io.to(userRoom(post.customer._id)).emit("postUpdated", customerView);
  };
  postEvents.on("changed", onChanged);
  const close = io.close.bind(io);
  io.close = (fn) => {
    postEvents.off("changed", onChanged);
    return close(fn);
  };
}
