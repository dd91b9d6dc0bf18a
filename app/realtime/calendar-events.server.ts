import type { Post } from "~/domain/calendar";
import { postJson } from "~/domain/schemas/calendar";
import { postEvents } from "~/models/post-events.server";
import { toPostJson } from "~/models/posts.server";

import { TEAM_ROOM, userRoom, type IoServer } from "./rooms.server";
import { fitsWireSchema } from "./wire-check.server";

/*
 * The content calendar live (decision 210): every committed change of a post goes out as
 * `postUpdated`, to the team room and to the customer's sockets (their user room, on every node
 * through the adapter) unless they may not see it. The customer's copy is their view of it: a
 * post taken back to draft reaches them once, as they last saw it, marked draft, so their
 * calendar drops it without learning what staff are changing. The event carries the API's shape
 * (`_id`, docs/api.md), written here as the API routes write it (decision 309), and held to its
 * schema outside production as their answers are (wire-check.server.ts).
 */

export function registerCalendarEvents(io: IoServer) {
  const onChanged = (post: Post, customerView: Post | null) => {
    const sent = toPostJson(post);
    if (fitsWireSchema("postUpdated", postJson, sent)) io.to(TEAM_ROOM).emit("postUpdated", sent);
    if (!customerView) return;
    const theirs = customerView === post ? sent : toPostJson(customerView);
    if (fitsWireSchema("postUpdated", postJson, theirs)) io.to(userRoom(post.customer.id)).emit("postUpdated", theirs);
  };
  postEvents.on("changed", onChanged);
  const close = io.close.bind(io);
  io.close = (fn) => {
    postEvents.off("changed", onChanged);
    return close(fn);
  };
}
