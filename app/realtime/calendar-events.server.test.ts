import { afterEach, describe, expect, it, vi } from "vitest";

import type { Post } from "~/domain/calendar";
import { postEvents } from "~/models/post-events.server";

import { registerCalendarEvents } from "./calendar-events.server";
import { TEAM_ROOM, userRoom, type IoServer } from "./rooms.server";

/** A server that records what it would send, and to which room. */
function recordingServer() {
  const sent: { room: string; event: string; payload: unknown }[] = [];
  const io = {
    to: (room: string) => ({ emit: (event: string, payload: unknown) => sent.push({ room, event, payload }) }),
    close: (fn?: (error?: Error) => void) => fn?.(),
  };
  return { io: io as unknown as IoServer, sent };
}

const post: Post = {
  id: "6f1c4f0e-6d1e-4a59-9b7c-1f1f1f1f1f1f",
  customer: { id: "0b7d7c1e-2f3a-4c5d-8e9f-0a0a0a0a0a0a", name: "Acme" },
  channel: "instagram",
  scheduledAt: "2026-12-01T09:00:00.000Z",
  caption: "Launch day",
  media: [],
  status: "in_review",
  reviewBy: null,
  stage: null,
  approvals: [],
  overdue: false,
  comments: [],
  updatedAt: "2026-11-29T05:00:00.000Z",
  permalink: null,
  publishedAt: null,
};

describe("postUpdated outside production", () => {
  const close: (() => void)[] = [];
  afterEach(() => {
    for (const done of close.splice(0)) done();
  });

  it("sends a post in its schema's shape to the team and to the customer", () => {
    const { io, sent } = recordingServer();
    registerCalendarEvents(io);
    close.push(() => void io.close());
    postEvents.emit("changed", post, post);
    expect(sent.map(({ room, event }) => [room, event])).toEqual([
      [TEAM_ROOM, "postUpdated"],
      [userRoom(post.customer.id), "postUpdated"],
    ]);
    expect(sent[0]!.payload).toMatchObject({ _id: post.id, customer: { _id: post.customer.id, name: "Acme" } });
  });

  it("does not send a post carrying a field its schema does not declare, and says why (on the console under test)", () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const { io, sent } = recordingServer();
    registerCalendarEvents(io);
    close.push(() => void io.close());
    const drifted = { ...post, internalNote: "not for the customer" } as Post;
    postEvents.emit("changed", drifted, drifted);
    expect(sent).toEqual([]);
    expect(errors).toHaveBeenCalledWith(expect.stringMatching(/^postUpdated not sent, it drifted from its schema: .*internalNote/));
  });
});
