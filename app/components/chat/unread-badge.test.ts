import { describe, expect, test } from "vitest";

import type { ChatMessage } from "~/domain/chat";
import type { Thread } from "~/domain/inbox";

import { countMessage, countThread } from "./unread-badge";

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
