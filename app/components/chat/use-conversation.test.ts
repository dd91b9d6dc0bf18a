import { describe, expect, test } from "vitest";

import type { ChatMessage } from "~/domain/chat";

import { catchUpCursor, mergeMessages } from "./use-conversation";

const message = (id: string, createdAt: string, text = id): ChatMessage => ({
  _id: id,
  roomId: "support-x",
  senderId: { _id: "u", name: "U", profileImage: null },
  receiverId: null,
  message: text,
  messageType: "text",
  createdAt,
  service: null,
});

describe("mergeMessages", () => {
  test("keeps the server's order (time, then id) and drops duplicates from live events and catch-up", () => {
    const history = [message("b", "2026-01-01T10:00:00.000Z"), message("c", "2026-01-01T10:01:00.000Z")];
    const live = [message("d", "2026-01-01T10:02:00.000Z")];
    const caughtUp = [message("c", "2026-01-01T10:01:00.000Z"), message("d", "2026-01-01T10:02:00.000Z"), message("a", "2026-01-01T10:00:00.000Z")];
    const merged = mergeMessages(mergeMessages(history, live), caughtUp);
    expect(merged.map((m) => m._id)).toEqual(["a", "b", "c", "d"]);
  });

  test("returns the same array when nothing arrives, so React does not re-render", () => {
    const history = [message("a", "2026-01-01T10:00:00.000Z")];
    expect(mergeMessages(history, [])).toBe(history);
  });
});

describe("catchUpCursor", () => {
  const at = (seconds: number) => new Date(Date.UTC(2026, 0, 1, 10, 0, seconds)).toISOString();
  const held = [message("a", at(0)), message("b", at(10)), message("c", at(20)), message("own", at(30))];

  test("after a reconnect: re-reads the last few seconds, never starting at our own newest message", () => {
    expect(catchUpCursor(held)).toBe("c");
  });

  test("after a resync: starts before the moment the node lost Redis", () => {
    expect(catchUpCursor(held, at(12))).toBe("a");
    expect(catchUpCursor(held, at(4))).toBeNull();
  });

  test("with nothing held, the newest page", () => {
    expect(catchUpCursor([])).toBeNull();
  });
});
