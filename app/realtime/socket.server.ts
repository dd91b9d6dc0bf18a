import type http from "node:http";
import { createAdapter } from "@socket.io/redis-adapter";
import type { Redis } from "ioredis";
import { Server } from "socket.io";

import { parseRoomId, supportRoomId, type ChatMessage } from "~/domain/chat";
import { can, memberCan, ownerKey } from "~/domain/permissions";
import { sendChatMessage, type RefusedSend } from "~/models/chat-send.server";
import { liveSessionIds } from "~/models/sessions.server";
import { threadEvents, type Delivery } from "~/models/thread-events.server";
import { afterResponse } from "~/utils/background.server";
import { env } from "~/utils/env.server";
import { logger } from "~/utils/logger.server";
import { countOpenSockets } from "~/utils/metrics.server";
import { createAdapterClients } from "~/utils/redis.server";
import { onSocketRevocation, type SocketRevocation } from "~/utils/socket-revocation.server";
import { resolveIdentity } from "~/web/auth.server";
import { fromOurPages } from "~/web/same-origin.server";

import { registerCalendarEvents } from "./calendar-events.server";
import { CHAT_ERRORS, type SendResult, type SocketData, type SupportMessagePayload } from "./events";
import { registerInboxHandlers } from "./inbox-handlers.server";
import { registerNotificationEvents } from "./notification-events.server";
import {
  answerOtherNodes,
  ASK_TIMEOUT_MS,
  broadcast,
  clientRoom,
  CUSTOMERS_ROOM,
  notifyIfAway,
  onlineClientIds,
  openAnywhere,
  sessionRoom,
  TEAM_ROOM,
  userRoom,
  type IoServer,
  type IoSocket,
} from "./rooms.server";

export { CUSTOMERS_ROOM, sessionRoom, TEAM_ROOM, userRoom, type IoServer };

const RESYNC_DELAY_MS = 300;
/** At most this many sockets per user on one node. */
export const MAX_SOCKETS_PER_USER = 10;
export const SOCKET_ERRORS = {
  unauthorized: "unauthorized",
  /** TEAM_2FA=required and the staff account has no second factor yet: nothing but its set-up page. */
  twoFactor: "second factor required",
  origin: "origin not allowed",
  tooMany: "too many connections",
  /** The identity could not be checked (database away): the client tries again later. */
  unavailable: "unavailable",
};
/** Sessions of open sockets are re-checked this often, so expiry or a revocation Redis missed still ends them. */
const SESSION_SWEEP_MS = 30_000;

/**
 * Socket.IO on the app's own http.Server; Redis adapter with REDIS_URL so nodes share rooms.
 * `adapterKey` (tests only) keeps in-process test servers off the channel of real nodes.
 */
export function attachSocketServer(httpServer: http.Server, options: { adapterKey?: string } = {}): IoServer {
  const io: IoServer = new Server(httpServer, { path: "/socket.io", serveClient: false });

  if (env.redisUrl) {
    const { pub, sub } = createAdapterClients(env.redisUrl);
    io.adapter(createAdapter(pub, sub, { requestsTimeout: ASK_TIMEOUT_MS, key: options.adapterKey }));
    resyncAfterRedisOutage(io, [pub, sub]);
    answerOtherNodes(io, pub);
    httpServer.once("close", () => {
      pub.disconnect();
      sub.disconnect();
    });
  }

  const stopRevocations = onSocketRevocation((revocation) => disconnectRevoked(io, revocation));
  const stopCounting = countOpenSockets(() => io.engine.clientsCount);
  const sweep = setInterval(() => void disconnectEndedSessions(io), SESSION_SWEEP_MS);
  sweep.unref();
  httpServer.once("close", () => {
    stopRevocations();
    stopCounting();
    clearInterval(sweep);
  });

  // The same identity functions as HTTP: a bearer token (auth.token or ?token=) or the session cookie.
  io.use(async (socket, next) => {
    try {
      const auth = socket.handshake.auth as { token?: unknown };
      const query = socket.handshake.query.token;
      const token = typeof auth?.token === "string" ? auth.token : typeof query === "string" ? query : null;
      // A cookie rides along on any cross-site request: only our own pages may use it here.
      // (WebSocket and cross-site XHR carry Origin; a same-origin polling GET may carry neither header.)
      if (!token && !fromOurPages(socket.handshake.headers)) return next(new Error(SOCKET_ERRORS.origin));
      const identity = await resolveIdentity(token, token ? null : (socket.handshake.headers.cookie ?? null));
      if (!identity) return next(new Error(SOCKET_ERRORS.unauthorized));
      if (identity.setupOnly) return next(new Error(SOCKET_ERRORS.twoFactor));
      if (localSocketCount(io, identity.user.id) >= MAX_SOCKETS_PER_USER) return next(new Error(SOCKET_ERRORS.tooMany));
      const { id, name, role, profileImage, clientId, clientRole } = identity.user;
      socket.data.user = { id, name, role, profileImage, clientId, clientRole };
      socket.data.sessionId = identity.sessionId;
      next();
    } catch (error) {
      logger.warn({ err: error }, "socket handshake failed");
      next(new Error(SOCKET_ERRORS.unavailable));
    }
  });

  io.on("connection", (socket) => {
    const user = socket.data.user;
    void socket.join([userRoom(user.id), sessionRoom(socket.data.sessionId)]);
    // Handshakes of one user that raced past the check above.
    if (localSocketCount(io, user.id) > MAX_SOCKETS_PER_USER) {
      socket.emit("error", { message: SOCKET_ERRORS.tooMany });
      return void socket.disconnect(true);
    }
    if (can(user, "area:team")) {
      void socket.join(TEAM_ROOM);
      socket.emit("teamRoomJoined", { roomId: TEAM_ROOM });
    } else {
      // A client's member who may chat is always in the client's support thread, so staff replies reach every tab.
      const client = ownerKey(user);
      void socket.join([CUSTOMERS_ROOM, clientRoom(client)]);
      if (memberCan(user, "chat")) {
        const own = supportRoomId(client);
        void socket.join(own);
        socket.emit("supportRoomJoined", { roomId: own });
      }
      io.to(TEAM_ROOM).emit("userConnected", { userId: client, name: user.name });
    }

    socket.on("joinRoom", (payload) => {
      const roomId = typeof payload?.roomId === "string" ? payload.roomId : "";
      if (!can(user, "chat:join-room", { roomId })) return void socket.emit("error", { message: CHAT_ERRORS.room });
      void socket.join(roomId);
      socket.emit(parseRoomId(roomId)?.kind === "support" ? "supportRoomJoined" : "joinedRoom", { roomId });
    });

    // Text and file messages (messageType "file" with an uploaded attachment's id) take one path.
    socket.on("supportMessage", (payload, ack) => {
      void handleMessage(io, socket, { ...incoming(payload), roomId: supportRoomOf(user, payload) }, ack);
    });

    socket.on("sendMessage", (payload, ack) => {
      void handleMessage(io, socket, { ...incoming(payload), roomId: typeof payload?.roomId === "string" ? payload.roomId : "" }, ack);
    });

    socket.on("onlineUsers", (ack) => {
      if (typeof ack !== "function") return;
      if (!can(user, "area:team")) return ack([]);
      void onlineClientIds(io).then(ack, () => ack([]));
    });

    socket.on("disconnect", () => {
      if (!can(user, "area:customer")) return;
      // Presence across nodes: a client is offline only when no socket of any of its members is left anywhere.
      const client = ownerKey(user);
      void openAnywhere(io, clientRoom(client)).then((left) => {
        if (!left) io.to(TEAM_ROOM).emit("userDisconnected", { userId: client });
      });
    });
  });
  deliverPostedMessages(io);
  registerInboxHandlers(io); // typing, read receipts, threadUpdated, file messages (decision 097)
  registerCalendarEvents(io); // postUpdated (decision 210)
  registerNotificationEvents(io); // notification (decision 289)

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

function localSocketCount(io: IoServer, userId: string) {
  return io.of("/").adapter.rooms.get(userRoom(userId))?.size ?? 0;
}

/**
 * Revocation on every node: through the adapter (Redis) for the other nodes, and directly on
 * this one, which must not wait for Redis (or go without it while Redis is away).
 */
function disconnectRevoked(io: IoServer, revocation: SocketRevocation) {
  const room = revocation.kind === "session" ? sessionRoom(revocation.sessionId) : userRoom(revocation.userId);
  io.local.in(room).disconnectSockets(true);
  io.in(room).disconnectSockets(true);
}

/** Sockets whose session expired or was revoked without this node hearing of it. */
async function disconnectEndedSessions(io: IoServer) {
  const sockets = [...io.of("/").sockets.values()];
  if (sockets.length === 0) return;
  try {
    const live = await liveSessionIds([...new Set(sockets.map((s) => s.data.sessionId))]);
    for (const socket of sockets) if (!live.has(socket.data.sessionId)) socket.disconnect(true);
  } catch (error) {
    logger.warn({ err: error }, "socket sessions not re-checked");
  }
}

/** The thread a supportMessage names: supportRoomId, else the userId's thread, else a customer's own. */
function supportRoomOf(user: SocketData["user"], payload: Partial<SupportMessagePayload> | undefined): string {
  if (typeof payload?.supportRoomId === "string") return payload.supportRoomId;
  if (typeof payload?.userId === "string") return supportRoomId(payload.userId);
  return can(user, "area:customer") ? supportRoomId(ownerKey(user)) : "";
}

type Incoming = { roomId: string; text: unknown; serviceId: unknown; file: boolean; attachmentId: unknown };

function incoming(payload: Partial<SupportMessagePayload> | undefined): Omit<Incoming, "roomId"> {
  return { text: payload?.message, serviceId: payload?.serviceId, file: payload?.messageType === "file", attachmentId: payload?.attachmentId };
}

/**
 * Validate, store, then broadcast: a message clients see is always in the database. The checks and
 * the store are the model's (shared with the pages' message form); the store is one statement that
 * also re-checks the socket's session (a revocation Redis could not carry, an expiry, a disabled
 * account), so a dead session stores and sends nothing, text or file.
 */
async function handleMessage(io: IoServer, socket: IoSocket, input: Incoming, ack: unknown) {
  const reply = (result: SendResult) => {
    if (!result.ok) socket.emit("error", { message: result.error });
    if (typeof ack === "function") (ack as (r: SendResult) => void)(result);
  };

  try {
    const sent = await sendChatMessage(socket.data.user, input, socket.data.sessionId);
    if (!sent.ok) return reply({ ok: false, error: refusal(socket, sent) });
    reply({ ok: true, message: sent.message });
    socket.emit("supportMessageSent", sent.message);
    deliver(io, sent.message, sent.delivery, socket.id);
  } catch (error) {
    logger.error({ err: error, roomId: input.roomId }, "chat message not stored");
    reply({ ok: false, error: CHAT_ERRORS.failed });
  }
}

/** A stored message to the room's other sockets on every node (all but `exceptSocketId`, the sender's, which has its acknowledgement). */
function deliver(io: IoServer, message: ChatMessage, delivery: Delivery, exceptSocketId?: string) {
  broadcast(io, message, delivery, exceptSocketId);
  // After the answer, as tracked work: a shutdown (or a test's end) waits for it rather than cutting its queries off.
  // Whether the customer is away is known only to the sockets, not to the message's statement (docs/decisions/327).
  const { customerId } = delivery;
  if (customerId && delivery.fromTeam)
    afterResponse("reply e-mail to an away customer", () => notifyIfAway(io, customerId, delivery.senderName, delivery.notifiedUserIds));
}

/** Messages sent by a page's form (no socket carried them) go out as a socket's would. */
function deliverPostedMessages(io: IoServer) {
  const onPosted = (message: ChatMessage, delivery: Delivery) => deliver(io, message, delivery);
  threadEvents.on("posted", onPosted);
  const close = io.close.bind(io);
  io.close = (fn) => {
    threadEvents.off("posted", onPosted);
    return close(fn);
  };
}

/** What a refused sender is told; an ended session is disconnected right after that answer. */
function refusal(socket: IoSocket, refused: RefusedSend): string {
  if (refused.reason !== "session") return refused.error;
  setImmediate(() => socket.disconnect(true));
  return SOCKET_ERRORS.unauthorized;
}
