import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { io as connect, type Socket } from "socket.io-client";
import { afterAll, afterEach, beforeAll } from "vitest";

import { catchUpCursor } from "~/components/chat/use-conversation";
import type { ChatMessage, ClientToServerEvents, SendResult, ServerToClientEvents } from "~/realtime/events";
import { attachSocketServer, type IoServer } from "~/realtime/socket.server";

import { createAccount, uniqueEmail } from "./factories";

/** Chat tests: accounts with bearer tokens, an in-process Socket.IO server, clients that wait. */

export type ChatClient = Socket<ServerToClientEvents, ClientToServerEvents>;
const unique = () => crypto.randomBytes(4).toString("hex");

export async function chatAccount(role: "user" | "team", name = role === "team" ? "Sam Staff" : "Charlie Chat") {
  const { id, email, token } = await createAccount({ role, name, email: uniqueEmail(`chat-${role}`, "chat.test") });
  return { id, name, role, token, email };
}
export type ChatAccount = Awaited<ReturnType<typeof chatAccount>>;

/** A real http.Server with the app's Socket.IO attached, on a free port. */
export async function startChatServer(): Promise<{ url: string; io: IoServer; close: () => Promise<void> }> {
  const server = http.createServer();
  const io = attachSocketServer(server, { adapterKey: `chat-test-${unique()}` });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    io,
    close: () => new Promise<void>((resolve) => io.close(() => resolve())),
  };
}

/**
 * One chat server for a test file: started before its tests and closed after them; sockets pushed
 * to `open` are closed after each test. `server.url` and `server.io` are read at test time.
 */
export function chatServerForFile() {
  let started: Awaited<ReturnType<typeof startChatServer>> | undefined;
  const open: ChatClient[] = [];
  beforeAll(async () => {
    started = await startChatServer();
  });
  afterEach(() => {
    for (const socket of open.splice(0)) socket.close();
  });
  afterAll(async () => {
    await started?.close();
  });
  const server = {
    get url() {
      return started!.url;
    },
    get io() {
      return started!.io;
    },
  };
  /** A socket signed in as `account`, closed after the test. */
  async function client(account: { token: string }) {
    const socket = await connectClient(server.url, { token: account.token });
    open.push(socket);
    return socket;
  }
  return { server, open, client };
}

/** Connects and resolves once open; rejects with the connect_error message. */
export function connectClient(url: string, auth: { token?: string; query?: string; cookie?: string } = {}): Promise<ChatClient> {
  const socket: ChatClient = connect(url, {
    path: "/socket.io",
    transports: ["websocket"],
    reconnection: false,
    forceNew: true,
    auth: auth.token ? { token: auth.token } : {},
    query: auth.query ? { token: auth.query } : {},
    extraHeaders: auth.cookie ? { Cookie: auth.cookie } : {},
  });
  return new Promise((resolve, reject) => {
    socket.once("connect", () => resolve(socket));
    socket.once("connect_error", (error) => {
      socket.close();
      reject(error);
    });
  });
}

/** The next event of that name matching the predicate, or a timeout error naming it. */
export function nextEvent<E extends keyof ServerToClientEvents>(
  socket: ChatClient,
  event: E,
  predicate: (...args: Parameters<ServerToClientEvents[E]>) => boolean = () => true,
  timeoutMs = 5000,
): Promise<Parameters<ServerToClientEvents[E]>[0]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.off(event, listener as never);
      reject(new Error(`no ${String(event)} within ${timeoutMs} ms`));
    }, timeoutMs);
    const listener = (...args: Parameters<ServerToClientEvents[E]>) => {
      if (!predicate(...args)) return;
      clearTimeout(timer);
      socket.off(event, listener as never);
      resolve(args[0]);
    };
    socket.on(event, listener as never);
  });
}

/** Collects every event of that name from now on. */
export function collect<E extends keyof ServerToClientEvents>(socket: ChatClient, event: E) {
  const seen: Parameters<ServerToClientEvents[E]>[0][] = [];
  socket.on(event, ((payload: Parameters<ServerToClientEvents[E]>[0]) => seen.push(payload)) as never);
  return seen;
}

/** Sends through `supportMessage` and resolves with the server's acknowledgement. */
export function sendSupport(socket: ChatClient, payload: Parameters<ClientToServerEvents["supportMessage"]>[0]): Promise<SendResult> {
  return socket.timeout(5000).emitWithAck("supportMessage", payload);
}

export function sendToRoom(socket: ChatClient, payload: Parameters<ClientToServerEvents["sendMessage"]>[0]): Promise<SendResult> {
  return socket.timeout(5000).emitWithAck("sendMessage", payload);
}

export const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function texts(messages: ChatMessage[]) {
  return messages.map((m) => m.message);
}

/**
 * A client that behaves like the ChatPanel: live messages by socket, and on every (re)connect or
 * `resync` the messages after its last one by HTTP. `url` may be a proxy in front of several nodes.
 */
export class ThreadClient {
  messages: ChatMessage[] = [];
  socket: ChatClient;
  catchUps = 0;

  constructor(
    private url: string,
    private token: string,
    private customerId: string,
  ) {
    this.socket = connect(url, {
      path: "/socket.io",
      transports: ["websocket"],
      auth: { token },
      forceNew: true,
      reconnectionDelay: 100,
      reconnectionDelayMax: 500,
    });
    const add = (m: ChatMessage) => this.add([m]);
    this.socket.on("supportMessage", add);
    this.socket.on("supportMessageSent", add);
    this.socket.on("connect", () => void this.catchUp());
    this.socket.on("resync", ({ since }) => void this.catchUp(since));
  }

  private add(incoming: ChatMessage[]) {
    const byId = new Map(this.messages.map((m) => [m._id, m]));
    for (const m of incoming) if (m.roomId === `support-${this.customerId}`) byId.set(m._id, m);
    this.messages = [...byId.values()].sort((a, b) => (a.createdAt === b.createdAt ? (a._id < b._id ? -1 : 1) : a.createdAt < b.createdAt ? -1 : 1));
  }

  async catchUp(since?: string) {
    const cursor = catchUpCursor(this.messages, since);
    const query = cursor ? `?after=${cursor}&limit=200` : "?limit=200";
    const response = await fetch(`${this.url}/api/chat/conversation/${this.customerId}${query}`, {
      headers: { Authorization: `Bearer ${this.token}` },
    }).catch(() => null);
    if (!response?.ok) return;
    const body = (await response.json()) as { data: { messages: ChatMessage[] } };
    this.add(body.data.messages);
    this.catchUps += 1;
  }

  connected() {
    return this.socket.connected ? Promise.resolve() : new Promise<void>((resolve) => this.socket.once("connect", () => resolve()));
  }

  send(message: string, userId?: string) {
    return sendSupport(this.socket, { message, userId });
  }

  texts() {
    return this.messages.map((m) => m.message);
  }

  /** Waits until it holds every given text (the list may hold more). */
  async has(expected: string[], timeoutMs = 10_000) {
    const deadline = Date.now() + timeoutMs;
    while (!expected.every((t) => this.texts().includes(t))) {
      if (Date.now() > deadline) throw new Error(`missing ${expected.filter((t) => !this.texts().includes(t)).join(", ")}; have ${this.texts().join(", ")}`);
      await delay(50);
    }
  }

  close() {
    this.socket.close();
  }
}
