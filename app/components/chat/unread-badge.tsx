import { useEffect, useRef, useState } from "react";

import { cn } from "~/components/ui/cn";
import { supportCustomerId, type ChatMessage } from "~/domain/chat";
import type { Thread } from "~/domain/inbox";
import { can } from "~/domain/permissions";
import { useOptionalSocket } from "~/realtime/use-socket";

import { CHAT_READ_EVENT, isThreadOnScreen, type ChatReadDetail } from "./read-state";

type Counts = Record<string, number>;

/** The counts after one live support message, as `viewer` sees them. */
export function countMessage(counts: Counts, m: ChatMessage, viewer: { id: string; role: "user" | "team" }): Counts {
  const customerId = supportCustomerId(m.roomId);
  if (!customerId || m.senderId._id === viewer.id) return counts;
  if (can(viewer, "area:customer")) return customerId === viewer.id ? { ...counts, [customerId]: (counts[customerId] ?? 0) + 1 } : counts;
  // Staff: a customer message adds one; any staff reply means the thread has been handled.
  return { ...counts, [customerId]: m.senderId._id === customerId ? (counts[customerId] ?? 0) + 1 : 0 };
}

/**
 * The counts after one `threadUpdated` (staff): the thread's own unread figure, which also covers
 * what no message event tells (a colleague read or answered it, a contact-form message). A copy
 * older than one already applied (`appliedAt`, per thread) changes nothing.
 */
export function countThread(counts: Counts, thread: Thread, appliedAt: Map<string, string>): Counts {
  const key = thread.customer._id;
  const last = appliedAt.get(key);
  if (last && last > thread.updatedAt) return counts;
  appliedAt.set(key, thread.updatedAt);
  return (counts[key] ?? 0) === thread.unread ? counts : { ...counts, [key]: thread.unread };
}

/** A live event that may change staff's unread counts, kept in order until the counts per thread are known. */
export type TeamUnreadEvent = { kind: "message"; message: ChatMessage } | { kind: "thread"; thread: Thread } | { kind: "read"; customerId: string };

/** The counts after one live event; `appliedAt` orders the `threadUpdated` copies of each thread. */
function countEvent(counts: Counts, event: TeamUnreadEvent, viewer: { id: string; role: "user" | "team" }, appliedAt: Map<string, string>): Counts {
  if (event.kind === "message") return countMessage(counts, event.message, viewer);
  if (event.kind === "thread") return countThread(counts, event.thread, appliedAt);
  return (counts[event.customerId] ?? 0) === 0 ? counts : { ...counts, [event.customerId]: 0 };
}

/**
 * Staff's sidebar total (docs/decisions/323-sidebar-unread-total.md): the page carries the server's
 * total alone, shown until a live event touches a thread. Then the counts per thread are asked for
 * (`known`), and the events heard meanwhile are applied to them in order: a `threadUpdated` sets its
 * thread's own figure, so one the server's counts already hold changes nothing, and a message the
 * counts already hold is set right by its `threadUpdated`, which the server sends after it.
 */
export interface TeamUnread {
  initial: number;
  counts: Counts | null;
  pending: TeamUnreadEvent[];
}

export function teamUnreadTotal(state: TeamUnread): number {
  return state.counts ? Object.values(state.counts).reduce((a, b) => a + b, 0) : state.initial;
}

/** One live event heard: applied to the counts per thread, or kept until they are known. */
export function heardTeamEvent(state: TeamUnread, event: TeamUnreadEvent, viewerId: string, appliedAt: Map<string, string>): TeamUnread {
  if (!state.counts) return { ...state, pending: [...state.pending, event] };
  const counts = countEvent(state.counts, event, { id: viewerId, role: "team" }, appliedAt);
  return counts === state.counts ? state : { ...state, counts };
}

/** The server's counts per thread arrived: the events heard since the first are applied to them. */
export function knownTeamCounts(state: TeamUnread, fetched: Counts, viewerId: string, appliedAt: Map<string, string>): TeamUnread {
  const counts = state.pending.reduce((c, event) => countEvent(c, event, { id: viewerId, role: "team" }, appliedAt), fetched);
  return { ...state, counts, pending: [] };
}

let teamCountsRequest: Promise<Counts> | null = null;

/** GET /api/chat/unread, one request at a time for the page (the sidebar shows the total twice). */
function fetchTeamCounts(): Promise<Counts> {
  teamCountsRequest ??= fetch("/api/chat/unread", { headers: { Accept: "application/json" }, credentials: "same-origin" })
    .then(async (response) => {
      const body = (await response.json().catch(() => null)) as { data?: { byCustomer?: Counts } } | null;
      if (!response.ok || !body?.data?.byCustomer) throw new Error(`Unexpected status code: ${response.status}`);
      return body.data.byCustomer;
    })
    .finally(() => {
      teamCountsRequest = null;
    });
  return teamCountsRequest;
}

/** Subscribes `on` to what may change a support thread's unread count: a read on this page, and the socket's messages (and `threadUpdated` for staff). */
function useUnreadEvents(viewer: { id: string; role: "user" | "team" }, on: (event: TeamUnreadEvent) => void) {
  const { socket } = useOptionalSocket() ?? { socket: null };
  const handler = useRef(on);
  handler.current = on;
  useEffect(() => {
    const onRead = (event: Event) => handler.current({ kind: "read", customerId: (event as CustomEvent<ChatReadDetail>).detail.customerId });
    window.addEventListener(CHAT_READ_EVENT, onRead);
    if (!socket) return () => window.removeEventListener(CHAT_READ_EVENT, onRead);

    const onMessage = (m: ChatMessage) => {
      // The open chat panel marks it read itself.
      if (isThreadOnScreen(supportCustomerId(m.roomId) ?? "")) return;
      handler.current({ kind: "message", message: m });
    };
    const onThread = (thread: Thread) => {
      // The open chat panel marks it read itself (no +1 then 0 flicker).
      if (isThreadOnScreen(thread.customer._id)) return;
      handler.current({ kind: "thread", thread });
    };
    socket.on("supportMessage", onMessage);
    // Only the team room gets `threadUpdated`.
    if (can({ id: viewer.id, role: viewer.role }, "area:team")) socket.on("threadUpdated", onThread);
    return () => {
      window.removeEventListener(CHAT_READ_EVENT, onRead);
      socket.off("supportMessage", onMessage);
      socket.off("threadUpdated", onThread);
    };
  }, [socket, viewer.id, viewer.role]);
}

/**
 * Unread counts per support thread, starting from the loader's figures and kept live by the
 * socket: a message from the other side adds one; reading the thread (or, for staff, any staff
 * reply in it) clears it; staff also take each thread's figure from `threadUpdated`. viewer "team"
 * counts customer messages; viewer "user" counts replies.
 */
function useLiveUnreadCounts(initial: Counts, viewer: { id: string; role: "user" | "team" }): Counts {
  const [counts, setCounts] = useState<Counts>(initial);
  const appliedAt = useRef(new Map<string, string>());
  const initialKey = JSON.stringify(initial);
  useEffect(() => setCounts(JSON.parse(initialKey) as Counts), [initialKey]);
  useUnreadEvents(viewer, (event) => setCounts((c) => countEvent(c, event, viewer, appliedAt.current)));
  return counts;
}

/** Staff's total of unread support messages, from the server's total at load (see TeamUnread). */
function useLiveTeamUnreadTotal(initialTotal: number, viewerId: string): number {
  const [state, setState] = useState<TeamUnread>({ initial: initialTotal, counts: null, pending: [] });
  const appliedAt = useRef(new Map<string, string>());
  // Whether the counts per thread are known, being asked for, or not yet; a new figure from the
  // loader (a revalidation) starts over from it, and an answer asked for before is dropped.
  const phase = useRef<"total" | "asking" | "counts">("total");
  const generation = useRef(0);
  useEffect(() => {
    generation.current += 1;
    phase.current = "total";
    appliedAt.current = new Map();
    setState({ initial: initialTotal, counts: null, pending: [] });
  }, [initialTotal]);
  useUnreadEvents({ id: viewerId, role: "team" }, (event) => {
    setState((s) => heardTeamEvent(s, event, viewerId, appliedAt.current));
    if (phase.current !== "total") return;
    phase.current = "asking";
    const asked = generation.current;
    fetchTeamCounts().then(
      (fetched) => {
        if (asked !== generation.current) return;
        phase.current = "counts";
        setState((s) => (s.counts ? s : knownTeamCounts(s, fetched, viewerId, appliedAt.current)));
      },
      (error: unknown) => {
        // The total stays the server's, with the events heard kept, until the next event asks again.
        if (asked === generation.current) phase.current = "total";
        console.warn("unread counts failed:", error);
      },
    );
  });
  return teamUnreadTotal(state);
}

/** A small count bubble; nothing when zero. */
export function UnreadCount({
  count,
  className,
  label = "unread messages",
  testId = "unread-count",
}: {
  count: number;
  className?: string;
  label?: string;
  /** What tests find it by: chat's counts, or the notifications bell's. */
  testId?: string;
}) {
  if (count <= 0) return null;
  return (
    <span data-testid={testId} className={cn("count-badge", className)}>
      {count > 99 ? "99+" : count}
      <span className="sr-only">{` ${label}`}</span>
    </span>
  );
}

/**
 * Sidebar total for staff: pass the server's total of unread support messages from the loader. Inside
 * a link, give a `label` without "message" so the link's name stays distinct from the Message tab's.
 */
export function TeamUnreadTotal({
  initialTotal,
  viewer,
  className,
  label,
}: {
  initialTotal: number;
  viewer: { id: string };
  className?: string;
  label?: string;
}) {
  return <UnreadCount className={className} label={label} count={useLiveTeamUnreadTotal(initialTotal, viewer.id)} />;
}

/** One thread's count: staff in the user list (customerId = that customer), or a customer's own (customerId = own id). */
export function ThreadUnreadCount({
  customerId,
  initialCount,
  viewer,
  className,
  label,
}: {
  customerId: string;
  initialCount: number;
  viewer: { id: string; role: "user" | "team" };
  className?: string;
  label?: string;
}) {
  const counts = useLiveUnreadCounts({ [customerId]: initialCount }, viewer);
  return <UnreadCount className={className} label={label} count={counts[customerId] ?? 0} />;
}
