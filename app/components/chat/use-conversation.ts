import { useCallback, useEffect, useRef, useState } from "react";

import { supportRoomId } from "~/domain/chat";
import { CHAT_ERRORS, type ChatMessage, type SendResult } from "~/realtime/events";
import type { ClientSocket } from "~/realtime/use-socket";

export const PAGE_SIZE = 50;
const SEND_TIMEOUT_MS = 10_000;

/** Oldest first, by time then id (the server's order), without duplicates. */
export function mergeMessages(current: ChatMessage[], incoming: ChatMessage[]): ChatMessage[] {
  if (incoming.length === 0) return current;
  const byId = new Map(current.map((m) => [m._id, m]));
  for (const m of incoming) byId.set(m._id, m);
  return [...byId.values()].sort((a, b) => (a.createdAt === b.createdAt ? (a._id < b._id ? -1 : 1) : a.createdAt < b.createdAt ? -1 : 1));
}

/** How far back a catch-up re-reads: covers commits that became visible slightly out of order and clock skew. */
export const CATCH_UP_OVERLAP_MS = 5_000;
const CATCH_UP_PAGE = 200;

/**
 * Where a catch-up starts: the newest message we hold from before `reference` minus the overlap.
 * `reference` is the server's "link lost at" of a `resync`; after a reconnect, our newest message
 * (messages we sent ourselves may be newer than ones we missed, so never simply the last one).
 * Null: nothing that old, fetch the newest page instead.
 */
export function catchUpCursor(messages: ChatMessage[], reference?: string): string | null {
  const newest = messages.at(-1);
  if (!newest) return null;
  const limit = new Date(reference ?? newest.createdAt).getTime() - CATCH_UP_OVERLAP_MS;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (new Date(messages[i]!.createdAt).getTime() <= limit) return messages[i]!._id;
  }
  return null;
}

async function fetchMessages(customerId: string, query: Record<string, string>): Promise<ChatMessage[]> {
  const params = new URLSearchParams(query);
  const response = await fetch(`/api/chat/conversation/${encodeURIComponent(customerId)}?${params}`, {
    headers: { Accept: "application/json" },
    credentials: "same-origin",
  });
  const body = (await response.json().catch(() => null)) as { data?: { messages?: ChatMessage[] }; message?: string } | null;
  if (!response.ok || !body?.data?.messages) throw new Error(body?.message ?? `Unexpected status code: ${response.status}`);
  return body.data.messages;
}

/**
 * The support thread of one customer: history by HTTP, live messages by socket, and on every
 * (re)connect the messages missed meanwhile (`?after=<last id>`), so a node or Redis restart loses nothing.
 */
export function useConversation({
  customerId,
  socket,
  connected,
  serviceId,
  initial = null,
}: {
  customerId: string;
  socket: ClientSocket | null;
  connected: boolean;
  serviceId?: string | null;
  /** The thread as the page's loader read it: shown at once (also without JavaScript), no first fetch. */
  initial?: { messages: ChatMessage[]; hasEarlier: boolean } | null;
}) {
  const roomId = supportRoomId(customerId);
  const [messages, setMessages] = useState<ChatMessage[]>(initial?.messages ?? []);
  const [loading, setLoading] = useState(!initial);
  const [hasEarlier, setHasEarlier] = useState(initial?.hasEarlier ?? false);
  const seed = useRef(initial);
  seed.current = initial;
  const [loadError, setLoadError] = useState<string | null>(null);
  const [sendError, setSendError] = useState<string | null>(null);
  const latest = useRef<ChatMessage[]>([]);
  latest.current = messages;

  const add = useCallback((incoming: ChatMessage[]) => setMessages((current) => mergeMessages(current, incoming)), []);

  const catchUp = useCallback(
    async (reference?: string) => {
      const first = latest.current.length === 0;
      try {
        let cursor = catchUpCursor(latest.current, reference);
        if (!cursor) {
          // The newest PAGE_SIZE, oldest first.
          const fetched = await fetchMessages(customerId, { limit: String(PAGE_SIZE) });
          if (first) setHasEarlier(fetched.length === PAGE_SIZE);
          add(fetched);
        }
        // Page forward until the server has nothing newer.
        while (cursor) {
          const fetched = await fetchMessages(customerId, { after: cursor, limit: String(CATCH_UP_PAGE) });
          add(fetched);
          cursor = fetched.length === CATCH_UP_PAGE ? fetched.at(-1)!._id : null;
        }
        setLoadError(null);
      } catch (error) {
        console.warn("chat history failed:", error);
        setLoadError("Messages could not be loaded.");
      } finally {
        setLoading(false);
      }
    },
    [add, customerId],
  );

  useEffect(() => {
    // Another thread (or the first): the page's copy when it has one, else the newest page by HTTP.
    const page = seed.current;
    latest.current = page?.messages ?? [];
    setMessages(latest.current);
    setHasEarlier(page?.hasEarlier ?? false);
    setLoading(!page);
    if (!page) void catchUp();
  }, [catchUp]);

  // The page's data read again (after a form's post, a note, an assignment): whatever it adds joins in.
  const initialMessages = initial?.messages;
  useEffect(() => {
    if (initialMessages) add(initialMessages);
  }, [initialMessages, add]);

  useEffect(() => {
    if (!socket) return;
    const onMessage = (m: ChatMessage) => {
      if (m.roomId === roomId) add([m]);
    };
    const onError = ({ message }: { message: string }) => setSendError(message);
    const onConnect = () => {
      socket.emit("joinRoom", { roomId, otherUserId: customerId });
      void catchUp();
    };
    const onResync = (payload?: { since?: string }) => void catchUp(payload?.since);
    socket.on("newMessage", onMessage);
    socket.on("supportMessage", onMessage);
    socket.on("supportMessageSent", onMessage);
    socket.on("error", onError);
    socket.on("connect", onConnect);
    socket.on("resync", onResync);
    if (socket.connected) socket.emit("joinRoom", { roomId, otherUserId: customerId });
    return () => {
      socket.off("newMessage", onMessage);
      socket.off("supportMessage", onMessage);
      socket.off("supportMessageSent", onMessage);
      socket.off("error", onError);
      socket.off("connect", onConnect);
      socket.off("resync", onResync);
    };
  }, [socket, roomId, customerId, add, catchUp]);

  const loadEarlier = useCallback(async () => {
    const first = latest.current[0];
    if (!first) return;
    try {
      const fetched = await fetchMessages(customerId, { before: first._id, limit: String(PAGE_SIZE) });
      setHasEarlier(fetched.length === PAGE_SIZE);
      add(fetched);
    } catch (error) {
      console.warn("chat history failed:", error);
      setLoadError("Messages could not be loaded.");
    }
  }, [add, customerId]);

  /** Resolves true once the server has stored the message. */
  /** Sends text, or with `attachmentId` an uploaded file with `text` as its caption (may be empty). */
  const send = useCallback(
    (text: string, attachmentId?: string) =>
      new Promise<boolean>((resolve) => {
        if (!socket || !connected) return resolve(false);
        setSendError(null);
        socket
          .timeout(SEND_TIMEOUT_MS)
          .emit(
            "supportMessage",
            attachmentId
              ? { message: text, messageType: "file", attachmentId, supportRoomId: roomId, userId: customerId }
              : { message: text, messageType: "text", supportRoomId: roomId, userId: customerId, serviceId: serviceId ?? null },
            (timeout: Error | null, result: SendResult) => {
              if (timeout) {
                setSendError(CHAT_ERRORS.failed);
                return resolve(false);
              }
              if (!result.ok) {
                setSendError(result.error);
                return resolve(false);
              }
              add([result.message]);
              resolve(true);
            },
          );
      }),
    [socket, connected, roomId, customerId, serviceId, add],
  );

  return { roomId, messages, loading, hasEarlier, loadEarlier, loadError, sendError, send };
}
