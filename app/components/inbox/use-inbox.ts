import { useEffect, useState } from "react";

import { CHAT_READ_EVENT, type ChatReadDetail } from "~/components/chat/read-state";
import { latestThread, TYPING_SHOWN_MS, type InboxFilter, type Thread } from "~/domain/inbox";
import { useOptionalSocket, useSocketConnection } from "~/realtime/use-socket";

const latestFirst = (a: Thread, b: Thread) => (b.lastMessage?.createdAt ?? "").localeCompare(a.lastMessage?.createdAt ?? "") || (a._id < b._id ? 1 : -1);

/** Whether a thread belongs in the list this filter shows (a search is decided by the server: only threads already listed stay). */
export function threadMatches(thread: Thread, filter: InboxFilter, viewerId: string): boolean {
  if (filter === "closed") return thread.status === "closed";
  if (filter === "unassigned") return thread.status === "open" && !thread.assignee;
  if (filter === "mine") return thread.status === "open" && thread.assignee?._id === viewerId;
  return true;
}

/** The list after one `threadUpdated`: replaced or added in its place by latest message, or dropped when it no longer matches; an older copy than the listed one changes nothing. */
export function applyThreadUpdate(list: Thread[], thread: Thread, options: { filter: InboxFilter; viewerId: string; searching: boolean }): Thread[] {
  const current = list.find((t) => t._id === thread._id);
  if (current && latestThread(current, thread) !== thread) return list;
  const listed = !!current;
  const rest = list.filter((t) => t._id !== thread._id && t.roomId !== thread.roomId);
  if (!threadMatches(thread, options.filter, options.viewerId) || (options.searching && !listed)) return rest;
  return [...rest, thread].sort(latestFirst);
}

/** The list once this viewer's read of a thread is stored: its unread count is 0 at once, whatever the team room's `threadUpdated` says later or never. */
export function markListedThreadRead(list: Thread[], customerId: string): Thread[] {
  return list.some((t) => t.customer._id === customerId && t.unread > 0) ? list.map((t) => (t.customer._id === customerId ? { ...t, unread: 0 } : t)) : list;
}

/**
 * The inbox list kept live: `threadUpdated` (from every node, through the team room) moves a thread
 * to its place, and `typing` marks the threads whose customer is typing right now.
 */
export function useInboxThreads(initial: Thread[], options: { filter: InboxFilter; viewerId: string; searching: boolean }) {
  // The inbox is a chat view: the connection is open while it is on screen.
  useSocketConnection();
  const { socket } = useOptionalSocket() ?? { socket: null };
  const [threads, setThreads] = useState(initial);
  const [typing, setTyping] = useState<Record<string, number>>({});
  const key = JSON.stringify(initial.map((t) => [t._id, t.updatedAt, t.unread]));
  // eslint-disable-next-line react-hooks/exhaustive-deps -- a new loader result replaces the list
  useEffect(() => setThreads(initial), [key]);
  const { filter, viewerId, searching } = options;

  useEffect(() => {
    if (!socket) return;
    const onThread = (thread: Thread) => setThreads((list) => applyThreadUpdate(list, thread, { filter, viewerId, searching }));
    const onTyping = ({ roomId, userId }: { roomId: string; userId: string }) => {
      if (userId === viewerId) return;
      setTyping((t) => ({ ...t, [roomId]: Date.now() + TYPING_SHOWN_MS }));
      setTimeout(
        () => setTyping((t) => (t[roomId] && t[roomId] <= Date.now() ? Object.fromEntries(Object.entries(t).filter(([r]) => r !== roomId)) : t)),
        TYPING_SHOWN_MS + 50,
      );
    };
    socket.on("threadUpdated", onThread);
    socket.on("typing", onTyping);
    return () => {
      socket.off("threadUpdated", onThread);
      socket.off("typing", onTyping);
    };
  }, [socket, filter, viewerId, searching]);

  // This viewer read a thread (the open chat panel's receipt was stored).
  useEffect(() => {
    const onRead = (event: Event) => setThreads((list) => markListedThreadRead(list, (event as CustomEvent<ChatReadDetail>).detail.customerId));
    window.addEventListener(CHAT_READ_EVENT, onRead);
    return () => window.removeEventListener(CHAT_READ_EVENT, onRead);
  }, []);

  // A message from the customer ends their "typing…".
  useEffect(() => {
    setTyping((t) => {
      const next = { ...t };
      for (const thread of threads) if (thread.lastMessage?.senderId._id === thread.customer._id) delete next[thread.roomId];
      return Object.keys(next).length === Object.keys(t).length ? t : next;
    });
  }, [threads]);

  return { threads, typingRooms: new Set(Object.keys(typing)) };
}
