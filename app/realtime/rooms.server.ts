import type { Server, Socket } from "socket.io";

import type { ChatMessage } from "~/domain/chat";
import { chatMessageJson } from "~/domain/schemas/api";
import { notifyCustomerOfReply } from "~/models/chat.server";
import type { Delivery } from "~/models/thread-events.server";
import { logger } from "~/utils/logger.server";

import type { ClientToServerEvents, ServerToClientEvents, SocketData } from "./events";
import { fitsWireSchema } from "./wire-check.server";

/** The Socket.IO server's type and the delivery rooms every handler module shares (no handler imports another). */
export type IoServer = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;
export type IoSocket = Socket<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

export const TEAM_ROOM = "team";
/** Every customer socket, on any node: the source of the online list. */
export const CUSTOMERS_ROOM = "customers";
/** Every socket of one user, on any node: presence and "has an open connection" checks. */
export const userRoom = (userId: string) => `user-${userId}`;
/** Every socket of a client's members, on any node: presence, and events for the whole client. */
export const clientRoom = (clientId: string) => `client-${clientId}`;
/** Every socket opened with one session (cookie or bearer), on any node: revocation. */
export const sessionRoom = (sessionId: string) => `session-${sessionId}`;

/** The sockets in a room on every node; while Redis is away, this node's own (never "nobody"). */
export async function socketsAnywhere(io: IoServer, room: string) {
  try {
    return await io.in(room).fetchSockets();
  } catch {
    return io.local.in(room).fetchSockets();
  }
}

/** Whether any socket is in a room on any node: one on this node answers at once, without asking the others. */
async function openAnywhere(io: IoServer, room: string) {
  if (io.of("/").adapter.rooms.get(room)?.size) return true;
  return (await socketsAnywhere(io, room)).length > 0;
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
