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

/**
 * Unread counts per support thread, starting from the loader's figures and kept live by the
 * socket: a message from the other side adds one; reading the thread (or, for staff, any staff
 * reply in it) clears it; staff also take each thread's figure from `threadUpdated`. viewer "team"
 * counts customer messages; viewer "user" counts replies.
 */
export function useLiveUnreadCounts(initial: Counts, viewer: { id: string; role: "user" | "team" }): Counts {
  const { socket } = useOptionalSocket() ?? { socket: null };
  const [counts, setCounts] = useState<Counts>(initial);
  const appliedAt = useRef(new Map<string, string>());
  const initialKey = JSON.stringify(initial);
  useEffect(() => setCounts(JSON.parse(initialKey) as Counts), [initialKey]);

  useEffect(() => {
    const onRead = (event: Event) => {
      const { customerId } = (event as CustomEvent<ChatReadDetail>).detail;
      setCounts((c) => ({ ...c, [customerId]: 0 }));
    };
    window.addEventListener(CHAT_READ_EVENT, onRead);
    if (!socket) return () => window.removeEventListener(CHAT_READ_EVENT, onRead);

    const onMessage = (m: ChatMessage) => {
      // The open chat panel marks it read itself.
      if (isThreadOnScreen(supportCustomerId(m.roomId) ?? "")) return;
      setCounts((c) => countMessage(c, m, { id: viewer.id, role: viewer.role }));
    };
    const onThread = (thread: Thread) => {
      // The open chat panel marks it read itself (no +1 then 0 flicker).
      if (isThreadOnScreen(thread.customer._id)) return;
      setCounts((c) => countThread(c, thread, appliedAt.current));
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

  return counts;
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
 * Sidebar total for staff: pass getUnreadCountsForTeam().byCustomer from the loader. Inside a link,
 * give a `label` without "message" so the link's name stays distinct from the Message tab's.
 */
export function TeamUnreadTotal({
  initialByCustomer,
  viewer,
  className,
  label,
}: {
  initialByCustomer: Counts;
  viewer: { id: string };
  className?: string;
  label?: string;
}) {
  const counts = useLiveUnreadCounts(initialByCustomer, { id: viewer.id, role: "team" });
  return <UnreadCount className={className} label={label} count={Object.values(counts).reduce((a, b) => a + b, 0)} />;
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
