import { describe, expect, test, vi } from "vitest";

import { directRoomId, supportRoomId } from "~/domain/chat";
import { getConversation } from "~/models/chat.server";
import { createSession, revokeSession } from "~/models/sessions.server";
import { CHAT_ERRORS, type ChatMessage } from "~/realtime/events";
import { userRoom } from "~/realtime/socket.server";

import { chatAccount, chatServerForFile, collect, connectClient, nextEvent, sendSupport, sendToRoom, texts } from "../support/chat-helpers";
import { sessionCookieFor } from "../support/factories";

const { server, open, client } = chatServerForFile();

describe("the handshake", () => {
  test("refuses no token, a bad token and a logged-out token with 'unauthorized'", async () => {
    const customer = await chatAccount("user");
    await expect(connectClient(server.url)).rejects.toThrow("unauthorized");
    await expect(connectClient(server.url, { token: "not-a-real-token" })).rejects.toThrow("unauthorized");
    const { token } = await createSession(customer.id, "bearer");
    await revokeSession(token);
    await expect(connectClient(server.url, { token })).rejects.toThrow("unauthorized");
  });

  test("accepts a bearer token in auth.token or the token query, and the session cookie", async () => {
    const customer = await chatAccount("user");
    const viaQuery = await connectClient(server.url, { query: customer.token });
    open.push(viaQuery);
    expect(viaQuery.connected).toBe(true);
    const cookie = await sessionCookieFor(customer.id);
    const viaCookie = await connectClient(server.url, { cookie });
    open.push(viaCookie);
    expect(viaCookie.connected).toBe(true);
  });
});

describe("the support thread", () => {
  test("a customer and a staff member exchange messages, each stored before it arrives", async () => {
    const customer = await chatAccount("user", "Charlie Chat");
    const staff = await chatAccount("team", "Sam Staff");
    const staffSocket = await client(staff);
    const customerSocket = await client(customer);

    const atStaff = nextEvent(staffSocket, "supportMessage", (m) => m.message === "Hello, I need help");
    const sent = await sendSupport(customerSocket, { message: "  Hello, I need help  ", messageType: "text" });
    expect(sent.ok).toBe(true);
    const received = await atStaff;
    expect(received).toMatchObject({
      roomId: supportRoomId(customer.id),
      senderId: { _id: customer.id, name: "Charlie Chat", profileImage: null },
      receiverId: null,
      message: "Hello, I need help",
      messageType: "text",
    });

    const atCustomer = nextEvent(customerSocket, "supportMessage", (m) => m.message === "Happy to help!");
    const reply = await sendSupport(staffSocket, { message: "Happy to help!", userId: customer.id });
    expect(reply.ok).toBe(true);
    expect(await atCustomer).toMatchObject({ senderId: { _id: staff.id, name: "Sam Staff" }, receiverId: customer.id });

    const stored = await getConversation(customer.id, {});
    expect(texts(stored!)).toEqual(["Hello, I need help", "Happy to help!"]);
  });

  test("the sender gets supportMessageSent; staff who joined the thread get each message once", async () => {
    const customer = await chatAccount("user");
    const staff = await chatAccount("team");
    const staffSocket = await client(staff);
    const customerSocket = await client(customer);
    staffSocket.emit("joinRoom", { roomId: supportRoomId(customer.id), otherUserId: customer.id });
    await nextEvent(staffSocket, "supportRoomJoined", (p) => p.roomId === supportRoomId(customer.id));

    const atStaff = collect(staffSocket, "supportMessage");
    const ack = nextEvent(customerSocket, "supportMessageSent");
    await sendToRoom(customerSocket, { roomId: supportRoomId(customer.id), message: "once please" });
    expect((await ack).message).toBe("once please");
    // A second message arrives after any copy of the first (one connection keeps its order).
    const fence = nextEvent(staffSocket, "supportMessage", (m) => m.message === "and a second");
    await sendToRoom(customerSocket, { roomId: supportRoomId(customer.id), message: "and a second" });
    await fence;
    expect(texts(atStaff as ChatMessage[])).toEqual(["once please", "and a second"]);
  });

  test("a customer may name a service they bought; another service is refused", async () => {
    const customer = await chatAccount("user");
    const socket = await client(customer);
    const result = await sendSupport(socket, { message: "About my logo", serviceId: "00000000-0000-4000-8000-000000000000" });
    expect(result).toEqual({ ok: false, error: CHAT_ERRORS.service });
    expect(await getConversation(customer.id, {})).toEqual([]);
  });
});

describe("room rules", () => {
  test("a customer cannot join or write to support-{other} or a direct room of two others, in any combination", async () => {
    const a = await chatAccount("user");
    const b = await chatAccount("user");
    const c = await chatAccount("user");
    const socket = await client(a);
    const forbidden = [
      supportRoomId(b.id),
      supportRoomId(c.id),
      `support-${a.id.toUpperCase()}`,
      `support-${a.id}-x`,
      `${b.id}-${c.id}`,
      `${c.id}-${b.id}`,
      // A's own id in the wrong order is not a room either: direct rooms are sorted.
      [a.id, b.id].sort().reverse().join("-"),
      `${a.id}-${a.id}`,
      // Direct rooms are for team members: one customer cannot write to another by id.
      directRoomId(a.id, b.id),
      "team",
      `user-${b.id}`,
      "",
    ];
    for (const roomId of forbidden) {
      const refused = nextEvent(socket, "error");
      socket.emit("joinRoom", { roomId, otherUserId: b.id });
      expect(await refused, roomId).toEqual({ message: CHAT_ERRORS.room });
      expect(await sendToRoom(socket, { roomId, message: "let me in" }), roomId).toEqual({ ok: false, error: CHAT_ERRORS.room });
    }
    expect(await sendSupport(socket, { message: "x", supportRoomId: supportRoomId(b.id), userId: b.id })).toEqual({
      ok: false,
      error: CHAT_ERRORS.room,
    });

    // Nothing of B's thread reaches A, and nothing was written there.
    const seenByA = collect(socket, "supportMessage");
    const bSocket = await client(b);
    await sendSupport(bSocket, { message: "private to support" });
    // A staff reply to A, sent after B's message, is the fence: whatever A was sent arrives before it.
    const staffSocket = await client(await chatAccount("team"));
    const fence = nextEvent(socket, "supportMessage", (m) => m.message === "hello A");
    await sendSupport(staffSocket, { message: "hello A", userId: a.id });
    await fence;
    expect(texts(seenByA as ChatMessage[])).toEqual(["hello A"]);
    expect(texts((await getConversation(b.id, {}))!)).toEqual(["private to support"]);
  });

  test("a direct room is for its two members: newMessage reaches the other one", async () => {
    const staff = await chatAccount("team");
    const colleague = await chatAccount("team");
    const roomId = directRoomId(staff.id, colleague.id);
    const staffSocket = await client(staff);
    const colleagueSocket = await client(colleague);
    for (const socket of [staffSocket, colleagueSocket]) {
      const joined = nextEvent(socket, "joinedRoom");
      socket.emit("joinRoom", { roomId });
      expect(await joined).toEqual({ roomId });
    }
    const atColleague = nextEvent(colleagueSocket, "newMessage");
    expect((await sendToRoom(staffSocket, { roomId, receiverId: colleague.id, message: "direct hello" })).ok).toBe(true);
    expect(await atColleague).toMatchObject({ roomId, message: "direct hello", receiverId: colleague.id });
  });

  test("a customer writes only in their own support thread: a team member's direct message reaches them, they cannot write back there", async () => {
    const customer = await chatAccount("user");
    const staff = await chatAccount("team");
    const roomId = directRoomId(customer.id, staff.id);
    const customerSocket = await client(customer);
    const staffSocket = await client(staff);
    const atCustomer = nextEvent(customerSocket, "newMessage");
    expect((await sendToRoom(staffSocket, { roomId, receiverId: customer.id, message: "a word in private" })).ok).toBe(true);
    expect(await atCustomer).toMatchObject({ roomId, message: "a word in private", receiverId: customer.id });

    const refused = nextEvent(customerSocket, "error");
    customerSocket.emit("joinRoom", { roomId });
    expect(await refused).toEqual({ message: CHAT_ERRORS.room });
    expect(await sendToRoom(customerSocket, { roomId, receiverId: staff.id, message: "direct reply" })).toEqual({ ok: false, error: CHAT_ERRORS.room });
    expect((await sendSupport(customerSocket, { message: "in my own thread" })).ok).toBe(true);
  });
});

describe("limits", () => {
  test("2,001 characters and blank text are refused with the error event; 2,000 are fine", async () => {
    const customer = await chatAccount("user");
    const socket = await client(customer);
    const tooLong = nextEvent(socket, "error");
    expect(await sendSupport(socket, { message: "x".repeat(2001) })).toEqual({ ok: false, error: CHAT_ERRORS.tooLong });
    expect(await tooLong).toEqual({ message: "Message must be at most 2,000 characters." });
    expect(await sendSupport(socket, { message: "   \n\t " })).toEqual({ ok: false, error: CHAT_ERRORS.empty });
    expect(await sendSupport(socket, { message: 42 as unknown as string })).toEqual({ ok: false, error: CHAT_ERRORS.invalid });
    expect((await sendSupport(socket, { message: ` ${"y".repeat(2000)} ` })).ok).toBe(true);
    const stored = await getConversation(customer.id, {});
    expect(stored!.map((m) => m.message.length)).toEqual([2000]);
  });

  test("the 21st message within 10 s is refused", async () => {
    const customer = await chatAccount("user");
    const socket = await client(customer);
    const results = [];
    for (let i = 1; i <= 21; i++) results.push(await sendSupport(socket, { message: `message ${i}` }));
    expect(results.slice(0, 20).every((r) => r.ok)).toBe(true);
    expect(results[20]).toEqual({ ok: false, error: CHAT_ERRORS.rate });
    expect((await getConversation(customer.id, {}))!).toHaveLength(20);
  });

  test("<script> is stored and delivered as the plain text it is", async () => {
    const customer = await chatAccount("user");
    const staff = await chatAccount("team");
    const staffSocket = await client(staff);
    const socket = await client(customer);
    const text = `<script>alert("x")</script><img src=x onerror=alert(1)>`;
    const atStaff = nextEvent(staffSocket, "supportMessage", (m) => m.senderId._id === customer.id);
    await sendSupport(socket, { message: text });
    expect((await atStaff).message).toBe(text);
    expect((await getConversation(customer.id, {}))![0]!.message).toBe(text);
  });
});

describe("presence", () => {
  test("staff see customers come online and go offline, and can ask who is online", async () => {
    const staff = await chatAccount("team");
    const customer = await chatAccount("user", "Olive Online");
    const staffSocket = await client(staff);
    const connected = nextEvent(staffSocket, "userConnected", (p) => p.userId === customer.id);
    const customerSocket = await client(customer);
    expect(await connected).toEqual({ userId: customer.id, name: "Olive Online" });
    expect(await staffSocket.timeout(5000).emitWithAck("onlineUsers")).toContain(customer.id);

    // A second tab closing leaves the customer online; the last one closing does not.
    const secondTab = await client(customer);
    const gone = collect(staffSocket, "userDisconnected");
    secondTab.close();
    // The server has seen the tab go, and still reports the customer online.
    await vi.waitFor(async () => expect(await server.io.in(userRoom(customer.id)).fetchSockets()).toHaveLength(1));
    expect(await staffSocket.timeout(5000).emitWithAck("onlineUsers")).toContain(customer.id);
    expect(gone).toEqual([]);
    const disconnected = nextEvent(staffSocket, "userDisconnected", (p) => p.userId === customer.id);
    customerSocket.close();
    expect(await disconnected).toEqual({ userId: customer.id });
    expect(await staffSocket.timeout(5000).emitWithAck("onlineUsers")).not.toContain(customer.id);
  });

  test("customers are not told who is online", async () => {
    const customer = await chatAccount("user");
    const other = await chatAccount("user");
    const socket = await client(customer);
    await client(other);
    expect(await socket.timeout(5000).emitWithAck("onlineUsers")).toEqual([]);
  });
});
