import { parseRoomId } from "~/domain/chat";
import { isUuid } from "~/domain/ids";
import { TYPING_THROTTLE_MS, type Thread } from "~/domain/inbox";
import { can } from "~/domain/permissions";
import { threadJson } from "~/domain/schemas/api";
import { isMessageInRoom, markRead } from "~/models/chat.server";
import { getThreadByRoom } from "~/models/inbox.server";
import { threadEvents, type ReadReceipt } from "~/models/thread-events.server";
import { logger } from "~/utils/logger.server";

import { CHAT_ERRORS } from "./events";
import { TEAM_ROOM, userRoom, type IoServer } from "./rooms.server";
import { fitsWireSchema } from "./wire-check.server";

/*
 * The support inbox's socket events (decision 097), beside the chat handlers of
 * socket.server.ts: `typing` and `read` relayed to the room's other members on every node,
 * and `threadUpdated` to the team room after every change of a thread. File messages (messageType
 * "file" with an uploaded attachment's id) are sent like text, by socket.server.ts.
 */

export const INBOX_ERRORS = {
  read: "You cannot mark that message as read.",
  attachment: CHAT_ERRORS.attachment,
} as const;

export function registerInboxHandlers(io: IoServer) {
  const onChanged = (roomId: string, written?: Thread) => {
    // A message's send returns its thread: sent once the message itself has gone out (the store
    // emits this before its caller acknowledges and broadcasts). Other changes read the thread.
    const send = (thread: Thread) => {
      if (fitsWireSchema("threadUpdated", threadJson, thread)) io.to(TEAM_ROOM).emit("threadUpdated", thread);
    };
    if (written) return void setImmediate(() => send(written));
    getThreadByRoom(roomId).then(
      (thread) => {
        if (thread) send(thread);
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
  });
}

/** Who hears about activity in a room: its sockets, plus the team (support, from the customer) or the customer's every tab. */
function relayRooms(roomId: string, senderId: string): string[] {
  const room = parseRoomId(roomId);
  if (room?.kind === "support") return senderId === room.customerId ? [roomId, TEAM_ROOM] : [roomId, userRoom(room.customerId)];
  if (room?.kind === "direct") return [roomId, ...room.members.filter((id) => id !== senderId).map(userRoom)];
  return [roomId];
}
