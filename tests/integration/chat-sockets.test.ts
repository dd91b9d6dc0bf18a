import { eq } from "drizzle-orm";
import { io as connect } from "socket.io-client";
import { describe, expect, test } from "vitest";

import type { ChatMessage } from "~/domain/chat";
import { getConversation } from "~/models/chat.server";
import { issuePasswordToken } from "~/models/password-tokens.server";
import { createSession } from "~/models/sessions.server";
import { CHAT_ERRORS } from "~/realtime/events";
import { MAX_SOCKETS_PER_USER, SOCKET_ERRORS } from "~/realtime/socket.server";
import { action as logoutPageAction } from "~/routes/_auth+/logout";
import { action as logoutAction } from "~/routes/api+/auth+/logout";
import { action as resetAction } from "~/routes/api+/auth+/reset-password";
import { db, schema } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import { revokeSocketsOfUser } from "~/utils/socket-revocation.server";

import { chatAccount, chatServerForFile, connectClient, delay, nextEvent, sendSupport, type ChatClient } from "../support/chat-helpers";
import { driverCallsDuring } from "../support/driver-calls";
import { sessionCookieFor } from "../support/factories";
import { jsonRequest } from "../support/requests";
import { BASE_URL, loadContext } from "./authorization/helpers";

/*
 * Sockets: revocation ends sockets at once, cookie handshakes only from APP_URL's
 * origin, at most 10 sockets per user per node, 20 messages / 10 s per user across sockets.
 */

const { server, open } = chatServerForFile();

async function client(auth: Parameters<typeof connectClient>[1]) {
  const socket = await connectClient(server.url, auth);
  open.push(socket);
  return socket;
}

/** Resolves with the disconnect reason, or rejects when the socket is still open after `ms`. */
function disconnected(socket: ChatClient, ms = 3000) {
  return new Promise<string>((resolve, reject) => {
    if (!socket.connected) return resolve("already closed");
    const timer = setTimeout(() => reject(new Error("socket still connected")), ms);
    socket.once("disconnect", (reason) => {
      clearTimeout(timer);
      resolve(reason);
    });
  });
}

/** A cookie handshake as a browser on `origin` makes it. */
function connectWithOrigin(cookie: string, origin: string): Promise<ChatClient> {
  const socket: ChatClient = connect(server.url, {
    path: "/socket.io",
    transports: ["websocket"],
    reconnection: false,
    forceNew: true,
    extraHeaders: { Cookie: cookie, Origin: origin },
  });
  open.push(socket);
  return new Promise((resolve, reject) => {
    socket.once("connect", () => resolve(socket));
    socket.once("connect_error", (error) => reject(error));
  });
}

describe("revocation reaches open sockets", () => {
  test("logging out through the API disconnects that token's sockets and no others", async () => {
    const customer = await chatAccount("user");
    const other = await createSession(customer.id, "bearer");
    const [first, second, untouched] = await Promise.all([
      client({ token: customer.token }),
      client({ token: customer.token }),
      client({ token: other.token }),
    ]);
    const ends = [disconnected(first!), disconnected(second!)];

    const response = await logoutAction({
      request: jsonRequest("/api/auth/logout", {}, { Authorization: `Bearer ${customer.token}` }),
      params: {},
      context: loadContext(),
    });
    expect(response.status).toBe(200);
    expect(await Promise.all(ends)).toEqual(["io server disconnect", "io server disconnect"]);
    expect(untouched!.connected).toBe(true);
    expect((await sendSupport(untouched!, { message: "still here" })).ok).toBe(true);
  });

  test("signing out of the browser disconnects the sockets of that cookie session", async () => {
    const customer = await chatAccount("user");
    const cookie = await sessionCookieFor(customer.id);
    const socket = await client({ cookie });
    const ended = disconnected(socket);
    const request = new Request(`${BASE_URL}/logout`, { method: "POST", headers: { Cookie: cookie } });
    const response = await logoutPageAction({ request, params: {}, context: loadContext() });
    expect(response.status).toBe(302);
    expect(await ended).toBe("io server disconnect");
    await expect(connectClient(server.url, { cookie })).rejects.toThrow(SOCKET_ERRORS.unauthorized);
  });

  test("a password reset disconnects every socket of the account, cookie and bearer alike", async () => {
    const customer = await chatAccount("user");
    const cookie = await sessionCookieFor(customer.id);
    const sockets = await Promise.all([client({ token: customer.token }), client({ cookie })]);
    const ends = sockets.map((s) => disconnected(s));
    const token = await issuePasswordToken(customer.id, "reset");
    const response = await resetAction({
      request: jsonRequest("/api/auth/reset-password", { token, password: "a brand new password" }),
      params: {},
      context: loadContext(),
    });
    expect(response.status).toBe(200);
    expect(await Promise.all(ends)).toEqual(["io server disconnect", "io server disconnect"]);
  });

  test("revokeSocketsOfUser (account disabled) disconnects every socket of the user", async () => {
    const customer = await chatAccount("user");
    const bystander = await chatAccount("user");
    const socket = await client({ token: customer.token });
    const other = await client({ token: bystander.token });
    const ended = disconnected(socket);
    revokeSocketsOfUser(customer.id);
    expect(await ended).toBe("io server disconnect");
    expect(other.connected).toBe(true);
  });

  test("a socket whose session ended where this node did not hear of it cannot write", async () => {
    const customer = await chatAccount("user");
    const socket = await client({ token: customer.token });
    // Deleted behind the app's back: no revocation was announced.
    await db.delete(schema.sessions).where(eq(schema.sessions.userId, customer.id));
    const ended = disconnected(socket);
    expect(await sendSupport(socket, { message: "after the end" })).toEqual({ ok: false, error: SOCKET_ERRORS.unauthorized });
    expect(await ended).toBe("io server disconnect");
    const stored = await db.select().from(schema.chatMessages).where(eq(schema.chatMessages.customerId, customer.id));
    expect(stored).toEqual([]);
  });
});

describe("a message is one round trip", () => {
  test("the session re-check, the message, its thread, threadUpdated, the read position, its webhook event and bell: one statement, text and file alike", async () => {
    const customer = await chatAccount("user", "Rita Roundtrip");
    const staff = await chatAccount("team");
    const atCustomer = await client({ token: customer.token });
    const atStaff = await client({ token: staff.token });
    const [attachment] = await db
      .insert(schema.chatAttachments)
      .values({
        roomId: `support-${customer.id}`,
        uploaderId: customer.id,
        storageKey: `chat/${customer.id}.png`,
        fileName: "photo.png",
        mimeType: "image/png",
        fileSize: 10,
      })
      .returning();

    const acknowledged: ChatMessage[] = [];
    for (const payload of [{ message: "one trip" }, { message: "", messageType: "file", attachmentId: attachment!.id }]) {
      const { result, calls } = await driverCallsDuring(async () => {
        const updated = nextEvent(
          atStaff,
          "threadUpdated",
          (t) => t.customer._id === customer.id && t.lastMessage?.messageType === (payload.messageType ?? "text"),
        );
        const sent = await sendSupport(atCustomer, payload as never);
        const thread = await updated;
        await delay(150); // anything still running after the acknowledgement is counted too
        return { sent, thread };
      });
      // The send is the one statement: the session, the message, its thread, the read position, its
      // webhook event and the other side's bell; nothing after the answer reads or writes anything.
      expect(calls).toHaveLength(1);
      expect(calls[0]!.text).toMatch(/insert into chat_messages[\s\S]*insert into "webhook_events"[\s\S]*insert into "notifications"/);
      if (!result.sent.ok) throw new Error(result.sent.error);
      acknowledged.push(result.sent.message);
      expect(result.thread).toMatchObject({
        roomId: `support-${customer.id}`,
        customer: { _id: customer.id, name: "Rita Roundtrip", email: customer.email },
        lastMessage: { _id: result.sent.message._id, senderId: { _id: customer.id, name: "Rita Roundtrip" }, createdAt: result.sent.message.createdAt },
        status: "open",
      });
    }
    // What was acknowledged is exactly what is stored, to the millisecond.
    expect(await getConversation(customer.id, {})).toEqual(acknowledged);
    const [thread] = await db.select().from(schema.chatThreads).where(eq(schema.chatThreads.customerId, customer.id));
    expect(thread).toMatchObject({ teamUnread: 2, customerReadMessageId: thread!.lastMessageId });
    const [position] = await db.select().from(schema.chatReadPositions).where(eq(schema.chatReadPositions.userId, customer.id));
    expect(position!.roomId).toBe(`support-${customer.id}`);
  });
});

describe("handshake rules", () => {
  test("a cookie handshake from another origin is refused; from APP_URL's origin it is accepted", async () => {
    const customer = await chatAccount("user");
    const cookie = await sessionCookieFor(customer.id);
    await expect(connectWithOrigin(cookie, "https://evil.example")).rejects.toThrow(SOCKET_ERRORS.origin);
    await expect(connectWithOrigin(cookie, "http://localhost:1")).rejects.toThrow(SOCKET_ERRORS.origin);
    const socket = await connectWithOrigin(cookie, new URL(env.appUrl).origin);
    expect(socket.connected).toBe(true);
  });

  test("at most 10 sockets per user on a node: the 11th is refused, another user is not", async () => {
    const customer = await chatAccount("user");
    const sockets = await Promise.all(Array.from({ length: MAX_SOCKETS_PER_USER }, () => client({ token: customer.token })));
    expect(sockets.every((s) => s.connected)).toBe(true);
    await expect(connectClient(server.url, { token: customer.token })).rejects.toThrow(SOCKET_ERRORS.tooMany);
    const someoneElse = await chatAccount("user");
    expect((await client({ token: someoneElse.token })).connected).toBe(true);

    // Closing one frees a place.
    const closed = sockets[0]!;
    closed.close();
    await new Promise((r) => setTimeout(r, 100));
    expect((await client({ token: customer.token })).connected).toBe(true);
  });

  test("the 20 messages / 10 s limit counts per user, across their sockets", async () => {
    const customer = await chatAccount("user");
    const [a, b] = await Promise.all([client({ token: customer.token }), client({ token: customer.token })]);
    const results = [];
    for (let i = 1; i <= 21; i++) results.push(await sendSupport(i % 2 ? a! : b!, { message: `message ${i}` }));
    expect(results.filter((r) => r.ok)).toHaveLength(20);
    expect(results[20]).toEqual({ ok: false, error: CHAT_ERRORS.rate });
    const refused = nextEvent(b!, "error");
    expect(await sendSupport(b!, { message: "one more" })).toEqual({ ok: false, error: CHAT_ERRORS.rate });
    expect(await refused).toEqual({ message: CHAT_ERRORS.rate });
  });
});
