import { describe, expect, test } from "vitest";

import { latestThread, toInboxRow, type Thread } from "~/domain/inbox";

import { applyThreadUpdate, markListedThreadRead } from "./use-inbox";

const thread = (id: string, at: string, changes: Partial<Thread> = {}): Thread => ({
  _id: id,
  roomId: `support-${id}`,
  kind: "customer",
  customer: { _id: id, name: id, email: `${id}@x.test` },
  client: { _id: id, name: id },
  lastMessage: {
    _id: `m-${id}-${at}`,
    roomId: `support-${id}`,
    senderId: { _id: id, name: id, profileImage: null },
    receiverId: null,
    message: "hi",
    messageType: "text",
    createdAt: at,
    service: null,
  },
  unread: 1,
  status: "open",
  assignee: null,
  updatedAt: at,
  ...changes,
});

const rows = (...threads: Thread[]) => threads.map(toInboxRow);

describe("applyThreadUpdate", () => {
  const list = rows(thread("b", "2026-11-23T10:00:02Z"), thread("a", "2026-11-23T10:00:01Z"));

  test("a new message moves its thread to the top", () => {
    expect(applyThreadUpdate(list, thread("a", "2026-11-23T10:00:03Z"), { filter: "all", viewerId: "me", searching: false }).map((row) => row.id)).toEqual([
      "a",
      "b",
    ]);
  });

  test("a thread that no longer fits the filter leaves it; one that now fits joins it", () => {
    const assigned = thread("b", "2026-11-23T10:00:02Z", { assignee: { _id: "me", name: "Me" } });
    expect(applyThreadUpdate(list, assigned, { filter: "unassigned", viewerId: "me", searching: false }).map((row) => row.id)).toEqual(["a"]);
    expect(applyThreadUpdate([], assigned, { filter: "mine", viewerId: "me", searching: false }).map((row) => row.id)).toEqual(["b"]);
    expect(
      applyThreadUpdate([], thread("a", "2026-11-23T10:00:01Z", { status: "closed" }), { filter: "closed", viewerId: "me", searching: false }).map(
        (row) => row.id,
      ),
    ).toEqual(["a"]);
  });

  test("a thread's update becomes its row, in the shape the loader sends", () => {
    const answered = thread("a", "2026-11-23T10:00:03Z", { unread: 0, assignee: { _id: "me", name: "Me" } });
    const updated = applyThreadUpdate(list, answered, { filter: "all", viewerId: "me", searching: false });
    expect(updated[0]).toEqual(toInboxRow(answered));
    expect(updated[0]).toEqual({ id: "a", name: "a", email: "a@x.test", at: Date.parse("2026-11-23T10:00:03Z"), text: "hi", assignee: "Me" });
  });

  test("while searching, only threads already listed are updated", () => {
    expect(applyThreadUpdate(list, thread("c", "2026-11-23T10:00:09Z"), { filter: "all", viewerId: "me", searching: true }).map((row) => row.id)).toEqual([
      "b",
      "a",
    ]);
  });
});

describe("an older copy of a thread arriving late", () => {
  const closed = thread("a", "2026-11-23T10:00:05Z", { status: "closed" });
  const openBefore = thread("a", "2026-11-23T10:00:01Z", { lastMessage: closed.lastMessage, updatedAt: "2026-11-23T10:00:04Z" });

  test("never replaces the newer one, on the thread page or in the list", () => {
    expect(latestThread(closed, openBefore)).toBe(closed);
    expect(latestThread(openBefore, closed)).toBe(closed);
    const listed = rows(closed);
    expect(applyThreadUpdate(listed, openBefore, { filter: "all", viewerId: "me", searching: false })).toBe(listed);
  });

  test("a copy as new as the shown one, or another thread, is taken", () => {
    const sameTime = { ...closed, unread: 0 };
    expect(latestThread(closed, sameTime)).toBe(sameTime);
    const other = thread("b", "2026-11-23T10:00:00Z");
    expect(latestThread(closed, other)).toBe(other);
    expect(latestThread(null, other)).toBe(other);
  });
});

describe("markListedThreadRead", () => {
  const list = rows(thread("b", "2026-11-23T10:00:02Z"), thread("a", "2026-11-23T10:00:01Z"));

  test("the thread this viewer read shows no unread; the others keep theirs", () => {
    expect(markListedThreadRead(list, "a").map((row) => [row.id, row.unread ?? 0])).toEqual([
      ["b", 1],
      ["a", 0],
    ]);
  });

  test("a thread not listed, or already read, leaves the list as it was", () => {
    expect(markListedThreadRead(list, "c")).toBe(list);
    const read = markListedThreadRead(list, "a");
    expect(markListedThreadRead(read, "a")).toBe(read);
  });
});
