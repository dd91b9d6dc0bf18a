import { RateLimiterRes } from "rate-limiter-flexible";
import { parseRoomId, supportRoomId } from "~/domain/chat";
import { isUuid } from "~/domain/ids";
import { TYPING_THROTTLE_MS } from "~/domain/inbox";
import { can } from "~/domain/permissions";
import { AttachmentNotFoundError, isMessageInRoom, markRead, storeMessage } from "~/models/chat.server";
import { findAttachment } from "~/models/chat-attachments.server";
import { getThreadByRoom } from "~/models/inbox.server";
import { threadEvents, type ReadReceipt } from "~/models/thread-events.server";
import { logger } from "~/utils/logger.server";
import { limits } from "~/utils/rate-limit.server";
import { CHAT_ERRORS, type SendResult, type SocketData } from "./events";
import { broadcast, notifyIfAway, TEAM_ROOM, userRoom, type IoServer, type IoSocket } from "./rooms.server";

/*
 * The support inbox's socket events (issue 14), beside the chat handlers of
 * socket.server.ts: `typing` and `read` relayed to the room's other members on every node,
 * `threadUpdated` to the team room after every change of a thread, and `file` messages (a
 * supportMessage / sendMessage with messageType "file" and an uploaded attachment's id).
 */


export const INBOX_ERRORS = {
  read: "You cannot mark that message as read.",
  attachment: "That attachment was not found. Please upload it again.",
} as const;

export function registerInboxHandlers(io: IoServer) {
  const onChanged = (roomId: string) => {
    getThreadByRoom(roomId).then(
      (thread) => {
        if (thread) io.to(TEAM_ROOM).emit("threadUpdated", thread);
      },
      (error: unknown) => logger.warn({ err: error, roomId }, "threadUpdated not sent"),
    );
  };
  const onRead = (receipt: ReadReceipt) => {
    const rooms = [receipt.roomId, ...(receipt.customerId ? [userRoom(receipt.customerId)] : [])];
    io.to(rooms).emit("read", { roomId: receipt.roomId, userId: receipt.userId, messageId: receipt.messageId });
  };
  threadEvents.on("changed", onChanged);
  threadEvents.on("read", onRead);
  const close = io.close.bind(io);
  io.close = (fn) => {
    threadEvents.off("changed", onChanged);
    threadEvents.off("read", onRead);
    return close(fn);
  };

  io.on("connection", (socket) => {
    const user = socket.data.user;
    let lastTyping = 0;

    socket.on("typing", (payload) => {
      const roomId = typeof payload?.roomId === "string" ? payload.roomId : "";
      const room = parseRoomId(roomId);
      if (!room || !can(user, "chat:join-room", { roomId })) return void socket.emit("error", { message: CHAT_ERRORS.room });
      const now = Date.now();
      if (now - lastTyping < TYPING_THROTTLE_MS) return;
      lastTyping = now;
      socket.to(relayRooms(roomId, user.id)).emit("typing", { roomId, userId: user.id, name: user.name });
    });

    socket.on("read", (payload, ack) => {
      const reply = (result: { ok: boolean; error?: string }) => {
        if (!result.ok) socket.emit("error", { message: result.error ?? INBOX_ERRORS.read });
        if (typeof ack === "function") ack(result);
      };
      const roomId = typeof payload?.roomId === "string" ? payload.roomId : "";
      const messageId = payload?.messageId;
      if (!parseRoomId(roomId) || !can(user, "chat:join-room", { roomId }) || !isUuid(messageId)) return reply({ ok: false, error: INBOX_ERRORS.read });
      void (async () => {
        // A read for a message of another room (a forged receipt) is refused, not relayed.
        if (!(await isMessageInRoom(messageId, roomId))) return reply({ ok: false, error: INBOX_ERRORS.read });
        const receipt = await markRead(user.id, roomId, messageId);
        // Direct rooms have no thread summary: relay their receipts here.
        if (!receipt && parseRoomId(roomId)?.kind === "direct") socket.to(roomId).emit("read", { roomId, userId: user.id, messageId });
        reply({ ok: true });
      })().catch((error: unknown) => {
        logger.warn({ err: error, roomId }, "read receipt not saved");
        reply({ ok: false, error: CHAT_ERRORS.failed });
      });
    });

    // File messages are the text events with messageType "file": handled here, before the text handler sees them.
    socket.use((packet, next) => {
      const [event, payload] = packet as [string, Record<string, unknown> | undefined];
      if ((event !== "supportMessage" && event !== "sendMessage") || payload?.messageType !== "file") return next();
      const ack = packet.at(-1);
      const roomId = event === "sendMessage" ? String(payload.roomId ?? "") : supportRoomOf(user, payload);
      void sendFileMessage(io, socket, roomId, payload.attachmentId, typeof ack === "function" ? (ack as (r: SendResult) => void) : undefined);
    });
  });
}

/** Who hears about activity in a room: its sockets, plus the team (support, from the customer) or the customer's every tab. */
function relayRooms(roomId: string, senderId: string): string[] {
  const room = parseRoomId(roomId);
  if (room?.kind === "support") return senderId === room.customerId ? [roomId, TEAM_ROOM] : [roomId, userRoom(room.customerId)];
  if (room?.kind === "direct") return [roomId, ...room.members.filter((id) => id !== senderId).map(userRoom)];
  return [roomId];
}

function supportRoomOf(user: SocketData["user"], payload: Record<string, unknown>): string {
  if (typeof payload.supportRoomId === "string") return payload.supportRoomId;
  if (typeof payload.userId === "string") return supportRoomId(payload.userId);
  return can(user, "area:customer") ? supportRoomId(user.id) : "";
}

/** File messages count against the same per-user message limit as text. */
async function allowMessage(userId: string) {
  try {
    await limits.chatMessage.consume(userId);
    return true;
  } catch (error) {
    if (error instanceof RateLimiterRes) return false;
    logger.warn({ err: error }, "chat rate limit unavailable");
    return true;
  }
}

/** Store, acknowledge, broadcast: the same order as text messages (docs/decisions/051). */
async function sendFileMessage(io: IoServer, socket: IoSocket, roomId: string, attachmentId: unknown, ack?: (r: SendResult) => void) {
  const user = socket.data.user;
  const reply = (result: SendResult) => {
    if (!result.ok) socket.emit("error", { message: result.error });
    ack?.(result);
  };
  if (!(await allowMessage(user.id))) return reply({ ok: false, error: CHAT_ERRORS.rate });
  const room = parseRoomId(roomId);
  if (!room || !can(user, "chat:join-room", { roomId })) return reply({ ok: false, error: CHAT_ERRORS.room });
  if (!isUuid(attachmentId)) return reply({ ok: false, error: INBOX_ERRORS.attachment });
  try {
    const attachment = await findAttachment(attachmentId);
    if (!attachment || attachment.roomId !== roomId || attachment.uploaderId !== user.id || attachment.messageId) {
      return reply({ ok: false, error: INBOX_ERRORS.attachment });
    }
    const customerId = room.kind === "support" ? room.customerId : null;
    const otherMember = room.kind === "direct" ? (room.members.find((id) => id !== user.id) ?? null) : null;
    const message = await storeMessage({
      roomId,
      sender: { _id: user.id, name: user.name, profileImage: user.profileImage },
      receiverId: customerId ? (can(user, "area:team") ? customerId : null) : otherMember,
      customerId,
      service: null,
      message: attachment.fileName,
      attachmentId: attachment.id,
    });
    reply({ ok: true, message });
    socket.emit("supportMessageSent", message);
    broadcast(io, socket, message, customerId, otherMember);
    markRead(user.id, roomId).catch((error: unknown) => logger.warn({ err: error }, "chat read position not saved"));
    if (customerId && can(user, "area:team")) void notifyIfAway(io, customerId, user.name);
  } catch (error) {
    if (error instanceof AttachmentNotFoundError) return reply({ ok: false, error: INBOX_ERRORS.attachment });
    logger.error({ err: error, roomId }, "chat file message not stored");
    reply({ ok: false, error: CHAT_ERRORS.failed });
  }
}

