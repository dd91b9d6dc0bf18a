import { describe, expect, test } from "vitest";

import type { ChatMessage } from "~/domain/chat";
import type { Thread } from "~/domain/inbox";

import { countMessage, countThread, heardTeamEvent, knownTeamCounts, teamUnreadTotal, type TeamUnread, type TeamUnreadEvent } from "./unread-badge";

const customer = "11111111-1111-4111-8111-111111111111";
const staff = { id: "22222222-2222-4222-8222-222222222222", role: "team" as const };
const otherStaff = "33333333-3333-4333-8333-333333333333";

const from = (senderId: string, roomId = `support-${customer}`): ChatMessage => ({
  _id: Math.random().toString(36),
  roomId,
  senderId: { _id: senderId, name: "x", profileImage: null },
  receiverId: null,
  message: "hi",
  messageType: "text",
  createdAt: new Date().toISOString(),
  service: null,
});

describe("live unread counts", () => {
  test("staff: customer messages add up; another staff member's reply clears the thread", () => {
    let counts = countMessage({}, from(customer), staff);
    counts = countMessage(counts, from(customer), staff);
    expect(counts[customer]).toBe(2);
    expect(countMessage(counts, from(otherStaff), staff)[customer]).toBe(0);
    expect(countMessage(counts, from(staff.id), staff)).toBe(counts); // own message: unchanged
  });

  test("customer: staff replies in their own thread add up; their own messages and other rooms do not", () => {
    const me = { id: customer, role: "user" as const };
    let counts = countMessage({}, from(staff.id), me);
    counts = countMessage(counts, from(customer), me);
    counts = countMessage(counts, from(staff.id, `${customer}-${staff.id}`), me);
    expect(counts).toEqual({ [customer]: 1 });
  });
});

describe("live unread counts from threadUpdated (staff)", () => {
  const thread = (unread: number, updatedAt: string, id = customer) =>
    ({ _id: `t-${id}`, customer: { _id: id, name: "C", email: "c@x.test" }, unread, updatedAt }) as unknown as Thread;

  test("a colleague reading the thread, or a contact-form message, sets its count; an older copy changes nothing", () => {
    const applied = new Map<string, string>();
    let counts = countThread({ [customer]: 2 }, thread(0, "2026-11-28T10:00:02.000Z"), applied);
    expect(counts).toEqual({ [customer]: 0 });
    counts = countThread(counts, thread(2, "2026-11-28T10:00:01.000Z"), applied);
    expect(counts).toEqual({ [customer]: 0 });
    counts = countThread(counts, thread(1, "2026-11-28T10:00:01.000Z", otherStaff), applied);
    expect(counts).toEqual({ [customer]: 0, [otherStaff]: 1 });
  });
});

describe("staff's sidebar total: the server's total, then the counts per thread once a live event comes", () => {
  const other = "44444444-4444-4444-8444-444444444444";
  const fresh = "55555555-5555-4555-8555-555555555555";
  const thread = (id: string, unread: number, updatedAt: string) =>
    ({ _id: `t-${id}`, customer: { _id: id, name: "C", email: "c@x.test" }, unread, updatedAt }) as unknown as Thread;
  const at = (second: number) => new Date(Date.UTC(2026, 10, 29, 10, 0, second)).toISOString();
  // At load: customer's thread 3 unread, other's 2; the page carries the 5 alone.
  const loaded = (): TeamUnread => ({ initial: 5, counts: null, pending: [] });
  /** Events heard, then the server's counts per thread as the answer found them, then events after. */
  function run(before: TeamUnreadEvent[], fetched: Record<string, number>, after: TeamUnreadEvent[] = []) {
    const applied = new Map<string, string>();
    let state = before.reduce((s, e) => heardTeamEvent(s, e, staff.id, applied), loaded());
    const shownWhileAsking = teamUnreadTotal(state);
    state = knownTeamCounts(state, fetched, staff.id, applied);
    state = after.reduce((s, e) => heardTeamEvent(s, e, staff.id, applied), state);
    return { shownWhileAsking, total: teamUnreadTotal(state), counts: state.counts };
  }

  test("before any event the page's total is shown", () => {
    expect(teamUnreadTotal(loaded())).toBe(5);
  });

  test("a new message in a thread already counted adds one, whether or not the server's counts already hold it", () => {
    const message = { kind: "message", message: from(customer) } as const;
    const updated = { kind: "thread", thread: thread(customer, 4, at(1)) } as const;
    // The answer read the counts after the message: its +1 is set right by the threadUpdated that follows it.
    expect(run([message], { [customer]: 4, [other]: 2 }, [updated])).toMatchObject({ shownWhileAsking: 5, total: 6 });
    expect(run([message, updated], { [customer]: 4, [other]: 2 })).toMatchObject({ total: 6 });
    // The answer read them before the message.
    expect(run([message], { [customer]: 3, [other]: 2 }, [updated])).toMatchObject({ total: 6 });
    // A second message after the counts are known.
    const second = [{ kind: "message", message: from(customer) } as const, { kind: "thread", thread: thread(customer, 5, at(2)) } as const];
    expect(run([message, updated], { [customer]: 4, [other]: 2 }, second)).toMatchObject({ total: 7, counts: { [customer]: 5, [other]: 2 } });
  });

  test("a thread read takes all of its count off the total, by a colleague (threadUpdated), on this page, or by a colleague's reply", () => {
    const readThere = { kind: "thread", thread: thread(customer, 0, at(1)) } as const;
    expect(run([readThere], { [other]: 2 })).toMatchObject({ shownWhileAsking: 5, total: 2 });
    // The answer read the counts before the read was stored: the threadUpdated heard still applies.
    expect(run([readThere], { [customer]: 3, [other]: 2 })).toMatchObject({ total: 2 });
    expect(run([], { [customer]: 3, [other]: 2 }, [readThere])).toMatchObject({ total: 2 });
    expect(run([{ kind: "read", customerId: customer }], { [customer]: 3, [other]: 2 })).toMatchObject({ total: 2 });
    expect(run([{ kind: "message", message: from(otherStaff) }], { [customer]: 3, [other]: 2 })).toMatchObject({ total: 2 });
    // Read twice (this page, then the team room's copy): still once.
    expect(run([{ kind: "read", customerId: customer }, readThere], { [other]: 2 })).toMatchObject({ total: 2 });
  });

  test("a new thread adds its count; an older copy of a thread changes nothing; the viewer's own message counts nothing", () => {
    const firstMessage = { kind: "message", message: from(fresh, `support-${fresh}`) } as const;
    const created = { kind: "thread", thread: thread(fresh, 1, at(1)) } as const;
    expect(run([firstMessage, created], { [customer]: 3, [other]: 2, [fresh]: 1 })).toMatchObject({ total: 6 });
    expect(run([firstMessage], { [customer]: 3, [other]: 2 }, [created])).toMatchObject({ total: 6 });
    const read = { kind: "thread", thread: thread(customer, 0, at(3)) } as const;
    const stale = { kind: "thread", thread: thread(customer, 3, at(2)) } as const;
    expect(run([read], { [other]: 2 }, [stale])).toMatchObject({ total: 2 });
    expect(run([{ kind: "message", message: from(staff.id) }], { [customer]: 3, [other]: 2 })).toMatchObject({ total: 5 });
  });
});
