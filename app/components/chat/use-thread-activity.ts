import { useCallback, useEffect, useRef, useState } from "react";

import type { ChatMessage } from "~/domain/chat";
import { TYPING_SHOWN_MS, TYPING_THROTTLE_MS } from "~/domain/inbox";
import type { ReadEvent, TypingEvent } from "~/realtime/events";
import type { ClientSocket } from "~/realtime/use-socket";

/**
 * Typing indicators and read receipts of one room (docs/api.md, socket events): who on the other side is typing
 * now, the newest message the other side has seen, `typed()` to call on every keystroke (sent at
 * most once per 2 s, as the server would drop the rest), and `read(id)` once a message is on screen.
 */
export function useThreadActivity({
  socket,
  roomId,
  viewerId,
  messages,
  initialSeenId = null,
}: {
  socket: ClientSocket | null;
  roomId: string;
  viewerId: string;
  messages: ChatMessage[];
  /** The other side's read receipt when the page loaded. */
  initialSeenId?: string | null;
}) {
  const [typing, setTyping] = useState<{ userId: string; name?: string } | null>(null);
  const [seenId, setSeenId] = useState<string | null>(initialSeenId);
  const lastTyped = useRef(0);
  const hideTimer = useRef<ReturnType<typeof setTimeout>>();

  useEffect(() => setSeenId(initialSeenId), [roomId, initialSeenId]);

  useEffect(() => {
    setTyping(null);
    if (!socket) return;
    const onTyping = (event: TypingEvent) => {
      if (event.roomId !== roomId || event.userId === viewerId) return;
      setTyping({ userId: event.userId, name: event.name });
      clearTimeout(hideTimer.current);
      hideTimer.current = setTimeout(() => setTyping(null), TYPING_SHOWN_MS);
    };
    const onRead = (event: ReadEvent) => {
      if (event.roomId === roomId && event.userId !== viewerId) setSeenId(event.messageId);
    };
    socket.on("typing", onTyping);
    socket.on("read", onRead);
    return () => {
      clearTimeout(hideTimer.current);
      socket.off("typing", onTyping);
      socket.off("read", onRead);
    };
  }, [socket, roomId, viewerId]);

  // Whoever was typing has sent their message.
  const last = messages.at(-1);
  useEffect(() => {
    if (last && typing && last.senderId._id === typing.userId) setTyping(null);
  }, [last, typing]);

  const typed = useCallback(() => {
    const now = Date.now();
    if (!socket?.connected || now - lastTyped.current < TYPING_THROTTLE_MS) return;
    lastTyped.current = now;
    socket.emit("typing", { roomId });
  }, [socket, roomId]);

  /** Our newest own message the other side has seen (by position: they saw everything up to seenId). */
  let seenOwnId: string | null = null;
  if (seenId) {
    const upTo = messages.findIndex((m) => m._id === seenId);
    for (let i = upTo; i >= 0; i--) {
      if (messages[i]!.senderId._id === viewerId) {
        seenOwnId = messages[i]!._id;
        break;
      }
    }
  }
  return { typing, typed, seenOwnId };
}
