import { useEffect, useState } from "react";

import { CHAT_READ_EVENT, type ChatReadDetail } from "~/components/chat/read-state";
import { inboxRowRoom, inboxRowUpdated, toInboxRow, TYPING_SHOWN_MS, type InboxFilter, type InboxRow, type Thread } from "~/domain/inbox";
import { useOptionalSocket, useSocketConnection } from "~/realtime/use-socket";

const latestFirst = (a: InboxRow, b: InboxRow) => (b.at ?? 0) - (a.at ?? 0) || (a.id < b.id ? 1 : -1);

/** Whether a thread belongs in the list this filter shows (a search is decided by the server: only threads already listed stay). */
export function threadMatches(thread: Thread, filter: InboxFilter, viewerId: string): boolean {
  if (filter === "closed") return thread.status === "closed";
  if (filter === "unassigned") return thread.status === "open" && !thread.assignee;
  if (filter === "mine") return thread.status === "open" && thread.assignee?._id === viewerId;
  return true;
}

/** Whether a row is this thread's: rows are keyed as the thread's page is, by its customer (a visitor's thread by its own id). */
const isRowOf = (row: InboxRow, thread: Thread) => row.id === thread.customer._id || row.id === thread._id;

/**
 * The list after one `threadUpdated` (a whole Thread, the socket's shape): its row replaced or added in
 * its place by latest message, or dropped when the thread no longer matches; a copy older than the
 * listed row changes nothing (as latestThread decides between two threads).
 */
export function applyThreadUpdate(list: InboxRow[], thread: Thread, options: { filter: InboxFilter; viewerId: string; searching: boolean }): InboxRow[] {
  const current = list.find((row) => isRowOf(row, thread));
  if (current && Date.parse(thread.updatedAt) < inboxRowUpdated(current)) return list;
  const rest = list.filter((row) => !isRowOf(row, thread));
  if (!threadMatches(thread, options.filter, options.viewerId) || (options.searching && !current)) return rest;
  return [...rest, toInboxRow(thread)].sort(latestFirst);
}

/** The list once this viewer's read of a thread is stored: its unread count is 0 at once, whatever the team room's `threadUpdated` says later or never. */
export function markListedThreadRead(list: InboxRow[], customerId: string): InboxRow[] {
  if (!list.some((row) => row.id === customerId && row.unread)) return list;
  return list.map((row) => {
    if (row.id !== customerId) return row;
    const { unread: _, ...read } = row;
    return read;
  });
}

/**
 * The inbox list kept live: `threadUpdated` (from every node, through the team room) moves a thread
 * to its place, and `typing` marks the threads whose customer is typing right now.
 */
export function useInboxThreads(initial: InboxRow[], options: { filter: InboxFilter; viewerId: string; searching: boolean }) {
  // The inbox is a chat view: the connection is open while it is on screen.
  useSocketConnection();
  const { socket } = useOptionalSocket() ?? { socket: null };
  const [threads, setThreads] = useState(initial);
  const [typing, setTyping] = useState<Record<string, number>>({});
  const key = JSON.stringify(initial.map((row) => [row.id, inboxRowUpdated(row), row.unread]));
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
      for (const row of threads) if (row.at !== undefined && !row.by) delete next[inboxRowRoom(row)];
      return Object.keys(next).length === Object.keys(t).length ? t : next;
    });
  }, [threads]);

  return { threads, typingRooms: new Set(Object.keys(typing)) };
}
