import { describe, expect, test } from "vitest";

import { fillReplyPlaceholders, inboxRowRoom, inboxRowUpdated, ROW_PREVIEW_CHARS, toInboxRow, type Thread } from "./inbox";
import { inboxRowJson } from "./schemas/inbox-row";

describe("saved reply placeholders", () => {
  test("{name}, {first_name} and {email} are filled with the customer's details, however spaced or cased", () => {
    const person = { name: "Charlie Chat", email: "charlie@example.test" };
    expect(fillReplyPlaceholders("Hi {name}! ({ First_Name } at {email})", person)).toBe("Hi Charlie Chat! (Charlie at charlie@example.test)");
  });

  test("a visitor who gave no name is greeted as 'there'; other braces stay as written", () => {
    expect(fillReplyPlaceholders("Hi {first_name}, see {docs}", { name: null, email: "v@example.test" })).toBe("Hi there, see {docs}");
  });
});

const CUSTOMER = "11111111-1111-4111-8111-111111111111";
const STAFF = "22222222-2222-4222-8222-222222222222";
const at = "2026-11-29T10:41:02.969Z";

const thread = (changes: Partial<Thread> = {}, message: Partial<NonNullable<Thread["lastMessage"]>> = {}): Thread => ({
  _id: "33333333-3333-4333-8333-333333333333",
  roomId: `support-${CUSTOMER}`,
  kind: "customer",
  customer: { _id: CUSTOMER, name: "Nadia Owner", email: "nadia@example.test" },
  client: { _id: CUSTOMER, name: "Nadia Owner" },
  lastMessage: {
    _id: "44444444-4444-4444-8444-444444444444",
    roomId: `support-${CUSTOMER}`,
    senderId: { _id: CUSTOMER, name: "Nadia Owner", profileImage: null },
    receiverId: null,
    message: "When is the logo ready?",
    messageType: "text",
    createdAt: at,
    service: null,
    ...message,
  },
  unread: 1,
  status: "open",
  assignee: null,
  updatedAt: at,
  ...changes,
});

describe("an inbox row (what the list shows of a thread)", () => {
  test("carries the row's fields only, keyed by the customer, the time in milliseconds, no key for false, zero or none", () => {
    expect(toInboxRow(thread())).toEqual({
      id: CUSTOMER,
      name: "Nadia Owner",
      email: "nadia@example.test",
      at: Date.parse(at),
      text: "When is the logo ready?",
      unread: 1,
    });
  });

  test("a staff member's file in a closed, assigned thread of a team's customer, changed after its last message", () => {
    const row = toInboxRow(
      thread(
        {
          client: { _id: CUSTOMER, name: "Quayside Coffee" },
          unread: 0,
          status: "closed",
          assignee: { _id: STAFF, name: "Taylor Brooks" },
          updatedAt: "2026-11-29T11:00:00.000Z",
        },
        { senderId: { _id: STAFF, name: "Taylor Brooks", profileImage: null }, messageType: "file", message: "logo.png" },
      ),
    );
    expect(row).toEqual({
      id: CUSTOMER,
      name: "Nadia Owner",
      client: "Quayside Coffee",
      email: "nadia@example.test",
      at: Date.parse(at),
      text: "logo.png",
      by: "Taylor Brooks",
      file: true,
      closed: true,
      assignee: "Taylor Brooks",
      updated: Date.parse("2026-11-29T11:00:00.000Z"),
    });
    expect(inboxRowUpdated(row)).toBe(Date.parse("2026-11-29T11:00:00.000Z"));
    expect(inboxRowUpdated(toInboxRow(thread()))).toBe(Date.parse(at));
  });

  test("every kind of row fits its strict schema; a key it does not declare does not", () => {
    const visitorId = "55555555-5555-4555-8555-555555555555";
    const threads = [
      thread(),
      thread({ lastMessage: null, unread: 0 }),
      thread({
        _id: visitorId,
        roomId: `visitor-${visitorId}`,
        kind: "visitor",
        customer: { _id: visitorId, name: "Val", email: "v@example.test" },
        client: null,
      }),
      thread(
        { status: "closed", assignee: { _id: STAFF, name: "Taylor Brooks" } },
        { senderId: { _id: STAFF, name: "Taylor Brooks", profileImage: null }, messageType: "file" },
      ),
    ];
    for (const t of threads) expect(inboxRowJson.safeParse(toInboxRow(t)).success).toBe(true);
    expect(inboxRowJson.safeParse({ ...toInboxRow(thread()), roomId: `support-${CUSTOMER}` }).success).toBe(false);
  });

  test("a long message is one line cut to what a row can show; a short one is kept whole", () => {
    const long = `${"word ".repeat(60)}\n\nend`;
    const text = toInboxRow(thread({}, { message: long })).text!;
    // 28 words of five characters are the first 140; the space after the last is not kept.
    expect(ROW_PREVIEW_CHARS).toBe(140);
    expect(text).toBe(`${"word ".repeat(28).trimEnd()}…`);
    expect(toInboxRow(thread({}, { message: "  two\nlines " })).text).toBe("two lines");
    // A character outside the basic plane is never cut in half.
    const emoji = toInboxRow(thread({}, { message: "😀".repeat(200) })).text!;
    expect(emoji).toBe(`${"😀".repeat(ROW_PREVIEW_CHARS)}…`);
  });

  test("a row names its chat room: a customer's support room, a visitor's own", () => {
    expect(inboxRowRoom(toInboxRow(thread()))).toBe(`support-${CUSTOMER}`);
    const visitorId = "55555555-5555-4555-8555-555555555555";
    const visitor = thread({
      _id: visitorId,
      roomId: `visitor-${visitorId}`,
      kind: "visitor",
      customer: { _id: visitorId, name: "Val", email: "v@example.test" },
      client: null,
    });
    expect(inboxRowRoom(toInboxRow(visitor))).toBe(visitor.roomId);
  });
});
