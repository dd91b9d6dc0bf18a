import type { Redis } from "ioredis";
import type { Server, Socket } from "socket.io";

import type { ChatMessage } from "~/domain/chat";
import { chatMessageJson } from "~/domain/schemas/api";
import { notifyCustomerOfReply } from "~/models/chat.server";
import type { Delivery } from "~/models/thread-events.server";
import { logger } from "~/utils/logger.server";

import type { ClientToServerEvents, ServerToClientEvents, SocketData } from "./events";
import { fitsWireSchema } from "./wire-check.server";

/**
 * What a node asks the others through the adapter (Socket.IO's server-side events): ids only, never a
 * socket's handshake (its cookie among them), which `fetchSockets` would carry across Redis.
 */
export interface InterServerEvents {
  /** Which of these rooms hold a socket on the answering node. */
  openRooms: (rooms: string[], answer: (open: string[]) => void) => void;
  /** The clients with a customer's socket on the answering node. */
  onlineClients: (answer: (clientIds: string[]) => void) => void;
}

/** The Socket.IO server's type and the delivery rooms every handler module shares (no handler imports another). */
export type IoServer = Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;
export type IoSocket = Socket<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;

export const TEAM_ROOM = "team";
/** Every customer socket, on any node: the source of the online list. */
export const CUSTOMERS_ROOM = "customers";
/** Every socket of one user, on any node: presence and "has an open connection" checks. */
export const userRoom = (userId: string) => `user-${userId}`;
/** Every socket of a client's members, on any node: presence, and events for the whole client. */
export const clientRoom = (clientId: string) => `client-${clientId}`;
/** Every socket opened with one session (cookie or bearer), on any node: revocation. */
export const sessionRoom = (sessionId: string) => `session-${sessionId}`;

/** The other nodes are asked through this Redis connection (the adapter's publishing one); a lone node asks no one. */
const askers = new WeakMap<IoServer, Redis>();
/** How long a node waits for the others' answers (the adapter's own request timeout). */
export const ASK_TIMEOUT_MS = 3000;

/**
 * With a shared adapter: answers the other nodes' questions (`InterServerEvents`) from this node's own
 * rooms, and asks them through `publisher`, the adapter's publishing connection.
 */
export function answerOtherNodes(io: IoServer, publisher: Redis) {
  askers.set(io, publisher);
  io.on("openRooms", (rooms, answer) => {
    if (Array.isArray(rooms) && typeof answer === "function") answer(rooms.filter((room) => openHere(io, room)));
  });
  io.on("onlineClients", (answer) => {
    if (typeof answer === "function") answer(clientsHere(io));
  });
}

/**
 * The other nodes' answers to a question: those that came within ASK_TIMEOUT_MS; none while Redis is
 * away (this node then answers alone, never "nobody anywhere" from a node that cannot ask).
 */
function askOtherNodes<T>(io: IoServer, ask: (collect: (error: Error | null, answers: T[]) => void) => void): Promise<T[]> {
  if (askers.get(io)?.status !== "ready") return Promise.resolve([]);
  return new Promise((resolve) => {
    // The adapter never answers when its own NUMSUB fails: the timer does.
    const timer = setTimeout(() => resolve([]), ASK_TIMEOUT_MS + 100);
    ask((_error, answers) => {
      clearTimeout(timer);
      // Each node's answer is checked once here: another node's code may differ (a rolling upgrade).
      resolve(Array.isArray(answers) ? answers.filter((answer) => Array.isArray(answer)) : []);
    });
  });
}

function openHere(io: IoServer, room: string) {
  return (io.of("/").adapter.rooms.get(room)?.size ?? 0) > 0;
}

function clientsHere(io: IoServer): string[] {
  const ids = new Set<string>();
  for (const socketId of io.of("/").adapter.rooms.get(CUSTOMERS_ROOM) ?? []) {
    const user = io.of("/").sockets.get(socketId)?.data.user;
    if (user) ids.add(user.clientId ?? user.id);
  }
  return [...ids];
}

/** Whether any socket is in a room on any node: one on this node answers at once, without asking the others. */
export async function openAnywhere(io: IoServer, room: string) {
  if (openHere(io, room)) return true;
  const answers = await askOtherNodes<string[]>(io, (collect) => io.serverSideEmit("openRooms", [room], collect));
  return answers.some((open) => open.includes(room));
}

/** The clients with at least one customer's socket open on any node (this node's alone while Redis is away). */
export async function onlineClientIds(io: IoServer): Promise<string[]> {
  const answers = await askOtherNodes<string[]>(io, (collect) => io.serverSideEmit("onlineClients", collect));
  return [...new Set([...clientsHere(io), ...answers.flat()])];
}

/**
 * Support threads go to the room, to every socket of the customer, and to the team room (the
 * shared inbox: unread counts for staff who have not opened the thread); a socket in several of
 * these rooms gets it once. A socket's send leaves out that socket (`exceptSocketId`: it has its
 * acknowledgement); a page's form has no socket to leave out.
 */
export function broadcast(io: IoServer, message: ChatMessage, delivery: Delivery, exceptSocketId?: string) {
  const { customerId, otherMember, senderId } = delivery;
  // A support message: the thread's room holds every socket of the client's members who chat (each joins at connection).
  const rooms = customerId ? [message.roomId, TEAM_ROOM] : [message.roomId, userRoom(senderId), ...(otherMember ? [userRoom(otherMember)] : [])];
  const event = customerId ? "supportMessage" : "newMessage";
  if (!fitsWireSchema(event, chatMessageJson, message)) return;
  const to = exceptSocketId ? io.to(rooms).except(exceptSocketId) : io.to(rooms);
  to.emit(event, message);
}

/** E-mails a staff reply to each member of the client it notified (the members who chat) when none of their own sockets is open anywhere. */
export async function notifyIfAway(io: IoServer, customerId: string, staffName: string, memberIds: readonly string[]) {
  try {
    for (const memberId of memberIds) {
      if (!(await openAnywhere(io, userRoom(memberId)))) await notifyCustomerOfReply(customerId, staffName, memberId);
    }
  } catch (error) {
    logger.warn({ err: error, customerId }, "chat reply notification failed");
  }
}
