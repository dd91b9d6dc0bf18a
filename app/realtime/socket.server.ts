import type http from "node:http";
import { createAdapter } from "@socket.io/redis-adapter";
import type { Redis } from "ioredis";
import { Server, type Socket } from "socket.io";
import { findMessageService, markRead, notifyCustomerOfReply, storeMessage } from "~/models/chat.server";
import { resolveIdentity } from "~/utils/auth.server";
import { env } from "~/utils/env.server";
import { logger } from "~/utils/logger.server";
import { can, supportRoomId } from "~/utils/permissions";
import { createRedis } from "~/utils/redis.server";
import {
  CHAT_ERRORS,
  MESSAGE_MAX_LENGTH,
  MESSAGE_RATE,
  type ChatMessage,
  type ClientToServerEvents,
  type SendResult,
  type ServerToClientEvents,
  type SocketData,
  type SupportMessagePayload,
} from "./events";

export type IoServer = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;
type IoSocket = Socket<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

export const TEAM_ROOM = "team";
/** Every customer socket, on any node: the source of the online list. */
export const CUSTOMERS_ROOM = "customers";
/** Every socket of one user, on any node: presence and "has an open connection" checks. */
export const userRoom = (userId: string) => `user-${userId}`;

const SUPPORT_ROOM = /^support-(.+)$/;
const FETCH_TIMEOUT_MS = 3000;
const RESYNC_DELAY_MS = 300;

/**
 * Socket.IO on the app's own http.Server; Redis adapter with REDIS_URL so nodes share rooms.
 * `adapterKey` (tests only) keeps in-process test servers off the channel of real nodes.
 */
export function attachSocketServer(httpServer: http.Server, options: { adapterKey?: string } = {}): IoServer {
  const io: IoServer = new Server(httpServer, { path: "/socket.io", serveClient: false });

  if (env.redisUrl) {
    const pub = createRedis(env.redisUrl);
    const sub = pub.duplicate();
    sub.on("error", (err: Error) => logger.warn({ err: err.message }, "redis error"));
    io.adapter(createAdapter(pub, sub, { requestsTimeout: FETCH_TIMEOUT_MS, key: options.adapterKey }));
    resyncAfterRedisOutage(io, [pub, sub]);
    httpServer.once("close", () => {
      pub.disconnect();
      sub.disconnect();
    });
  }

  // The same identity functions as HTTP: a bearer token (auth.token or ?token=) or the session cookie.
  io.use(async (socket, next) => {
    try {
      const auth = socket.handshake.auth as { token?: unknown };
      const query = socket.handshake.query.token;
      const token = typeof auth?.token === "string" ? auth.token : typeof query === "string" ? query : null;
      const identity = await resolveIdentity(token, token ? null : socket.handshake.headers.cookie ?? null);
      if (!identity) return next(new Error("unauthorized"));
      socket.data.user = { id: identity.user.id, name: identity.user.name, role: identity.user.role, profileImage: identity.user.profileImage };
      next();
    } catch (error) {
      logger.error({ err: error }, "socket handshake failed");
      next(new Error("unauthorized"));
    }
  });

  io.on("connection", (socket) => {
    const user = socket.data.user;
    void socket.join(userRoom(user.id));
    if (user.role === "team") {
      void socket.join(TEAM_ROOM);
      socket.emit("teamRoomJoined", { roomId: TEAM_ROOM });
    } else {
      // A customer is always in their own support thread, so staff replies reach every tab.
      const own = supportRoomId(user.id);
      void socket.join([CUSTOMERS_ROOM, own]);
      socket.emit("supportRoomJoined", { roomId: own });
      io.to(TEAM_ROOM).emit("userConnected", { userId: user.id, name: user.name });
    }

    const allowMessage = rateLimiter();

    socket.on("joinRoom", (payload) => {
      const roomId = typeof payload?.roomId === "string" ? payload.roomId : "";
      if (!can(user, "chat:join-room", { roomId })) return void socket.emit("error", { message: CHAT_ERRORS.room });
      void socket.join(roomId);
      socket.emit(SUPPORT_ROOM.test(roomId) ? "supportRoomJoined" : "joinedRoom", { roomId });
    });

    socket.on("supportMessage", (payload, ack) => {
      const roomId = supportRoomOf(user, payload);
      void handleMessage(io, socket, allowMessage, { roomId, text: payload?.message, serviceId: payload?.serviceId }, ack);
    });

    socket.on("sendMessage", (payload, ack) => {
      const roomId = typeof payload?.roomId === "string" ? payload.roomId : "";
      void handleMessage(io, socket, allowMessage, { roomId, text: payload?.message, serviceId: payload?.serviceId }, ack);
    });

    socket.on("onlineUsers", (ack) => {
      if (typeof ack !== "function") return;
      if (user.role !== "team") return ack([]);
      void onlineCustomerIds(io).then(ack, () => ack([]));
    });

    socket.on("disconnect", () => {
      if (user.role !== "user") return;
      // Presence across nodes: offline only when no socket of this user is left anywhere.
      void io
        .in(userRoom(user.id))
        .fetchSockets()
        .then(
          (left) => {
            if (left.length === 0) io.to(TEAM_ROOM).emit("userDisconnected", { userId: user.id });
          },
          () => io.to(TEAM_ROOM).emit("userDisconnected", { userId: user.id }),
        );
    });
  });

  return io;
}

/**
 * While Redis is down, messages are still stored and acknowledged, but broadcasts to other nodes
 * are lost. When every connection is back, tell this node's clients to fetch what they missed.
 */
function resyncAfterRedisOutage(io: IoServer, clients: Redis[]) {
  let lostAt: Date | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  for (const client of clients) {
    client.on("close", () => {
      lostAt ??= new Date();
      clearTimeout(timer);
    });
    client.on("ready", () => {
      if (!lostAt || clients.some((c) => c.status !== "ready")) return;
      const since = lostAt.toISOString();
      lostAt = null;
      // ioredis resubscribes just after "ready"; give it a moment so live delivery works again first.
      timer = setTimeout(() => {
        logger.info({ since }, "redis is back: clients resync");
        io.local.emit("resync", { since });
      }, RESYNC_DELAY_MS);
    });
  }
}

/** The customers with at least one open socket on any node. */
export async function onlineCustomerIds(io: IoServer): Promise<string[]> {
  const sockets = await io.in(CUSTOMERS_ROOM).fetchSockets();
  return [...new Set(sockets.map((s) => s.data.user.id))];
}

/** The thread a supportMessage names: supportRoomId, else the userId's thread, else a customer's own. */
function supportRoomOf(user: SocketData["user"], payload: Partial<SupportMessagePayload> | undefined): string {
  if (typeof payload?.supportRoomId === "string") return payload.supportRoomId;
  if (typeof payload?.userId === "string") return supportRoomId(payload.userId);
  return user.role === "user" ? supportRoomId(user.id) : "";
}

/** contracts §4: at most MESSAGE_RATE.points messages per window, per socket. */
function rateLimiter() {
  const sent: number[] = [];
  return () => {
    const now = Date.now();
    while (sent.length > 0 && now - sent[0]! >= MESSAGE_RATE.windowMs) sent.shift();
    if (sent.length >= MESSAGE_RATE.points) return false;
    sent.push(now);
    return true;
  };
}

type Incoming = { roomId: string; text: unknown; serviceId: unknown };

/** Validate, store, then broadcast: a message clients see is always in the database. */
async function handleMessage(io: IoServer, socket: IoSocket, allow: () => boolean, input: Incoming, ack: unknown) {
  const user = socket.data.user;
  const reply = (result: SendResult) => {
    if (!result.ok) socket.emit("error", { message: result.error });
    if (typeof ack === "function") (ack as (r: SendResult) => void)(result);
  };

  if (!allow()) return reply({ ok: false, error: CHAT_ERRORS.rate });
  if (typeof input.text !== "string") return reply({ ok: false, error: CHAT_ERRORS.invalid });
  const text = input.text.trim();
  if (text.length === 0) return reply({ ok: false, error: CHAT_ERRORS.empty });
  if (text.length > MESSAGE_MAX_LENGTH) return reply({ ok: false, error: CHAT_ERRORS.tooLong });
  if (!can(user, "chat:join-room", { roomId: input.roomId })) return reply({ ok: false, error: CHAT_ERRORS.room });

  const support = SUPPORT_ROOM.exec(input.roomId);
  const customerId = support ? support[1]! : null;
  const otherMember = support ? null : input.roomId.split("-").length === 10 ? directPartner(input.roomId, user.id) : null;

  try {
    let service: { _id: string; name: string } | null = null;
    if (support && input.serviceId != null && input.serviceId !== "") {
      if (typeof input.serviceId !== "string" || !/^[0-9a-f-]{36}$/i.test(input.serviceId)) {
        return reply({ ok: false, error: CHAT_ERRORS.service });
      }
      service = await findMessageService(input.serviceId, { id: customerId!, role: user.role === "team" ? "team" : "user" });
      if (!service) return reply({ ok: false, error: CHAT_ERRORS.service });
    }
    const message = await storeMessage({
      roomId: input.roomId,
      sender: { _id: user.id, name: user.name, profileImage: user.profileImage },
      receiverId: support ? (user.role === "team" ? customerId : null) : otherMember,
      customerId,
      service,
      message: text,
    });
    reply({ ok: true, message });
    socket.emit("supportMessageSent", message);
    broadcast(io, socket, message, customerId, otherMember);
    // Writing counts as reading; off the delivery path, since a commit costs a disk flush.
    markRead(user.id, message.roomId).catch((error: unknown) => logger.warn({ err: error }, "chat read position not saved"));
    if (customerId && user.role === "team") void notifyIfAway(io, customerId, user.name);
  } catch (error) {
    logger.error({ err: error, roomId: input.roomId }, "chat message not stored");
    reply({ ok: false, error: CHAT_ERRORS.failed });
  }
}

/** A direct room is two sorted uuids joined by "-": the member that is not the sender. */
function directPartner(roomId: string, senderId: string) {
  const parts = roomId.split("-");
  const a = parts.slice(0, 5).join("-");
  const b = parts.slice(5).join("-");
  return a === senderId ? b : a;
}

/**
 * Support threads go to the room, to every socket of the customer, and to the team room (the
 * shared inbox: unread counts for staff who have not opened the thread); a socket in several of
 * these rooms gets it once. The sender's own socket has its acknowledgement instead.
 */
function broadcast(io: IoServer, socket: IoSocket, message: ChatMessage, customerId: string | null, otherMember: string | null) {
  if (customerId) {
    io.to([message.roomId, userRoom(customerId), TEAM_ROOM]).except(socket.id).emit("supportMessage", message);
  } else {
    const rooms = [message.roomId, userRoom(socket.data.user.id), ...(otherMember ? [userRoom(otherMember)] : [])];
    io.to(rooms).except(socket.id).emit("newMessage", message);
  }
}

async function notifyIfAway(io: IoServer, customerId: string, staffName: string) {
  try {
    const sockets = await io.in(userRoom(customerId)).fetchSockets().catch(() => []);
    if (sockets.length > 0) return;
    await notifyCustomerOfReply(customerId, staffName);
  } catch (error) {
    logger.warn({ err: error, customerId }, "chat reply notification failed");
  }
}
