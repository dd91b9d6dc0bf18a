import { useSyncExternalStore } from "react";

import { cn } from "~/components/ui/cn";
import { useOptionalSocket, type ClientSocket } from "~/realtime/use-socket";

/**
 * Which customers have an open connection on any node (staff only). One store per socket: the
 * list is asked for on every (re)connect, then kept current by userConnected/userDisconnected.
 */
interface PresenceStore {
  online: ReadonlySet<string>;
  listeners: Set<() => void>;
}

const PRESENCE_REFRESH_MS = 60_000;
const stores = new WeakMap<ClientSocket, PresenceStore>();
const EMPTY: ReadonlySet<string> = new Set();

function presenceStore(socket: ClientSocket): PresenceStore {
  const existing = stores.get(socket);
  if (existing) return existing;
  const created: PresenceStore = { online: EMPTY, listeners: new Set() };
  const update = (next: ReadonlySet<string>) => {
    created.online = next;
    for (const listener of created.listeners) listener();
  };
  const refresh = () => socket.emit("onlineUsers", (ids) => update(new Set(ids)));
  socket.on("connect", refresh);
  socket.on("userConnected", ({ userId }) => update(new Set(created.online).add(userId)));
  socket.on("userDisconnected", ({ userId }) => {
    const next = new Set(created.online);
    next.delete(userId);
    update(next);
  });
  if (socket.connected) refresh();
  // A node that dies cannot announce its customers leaving: ask again now and then.
  const timer = setInterval(() => {
    if (!socket.active) clearInterval(timer);
    else if (socket.connected) refresh();
  }, PRESENCE_REFRESH_MS);
  stores.set(socket, created);
  return created;
}

const noSubscribe = () => () => {};

/** The ids of online customers; empty outside a SocketProvider or before the first answer. */
export function useOnlineCustomers(): ReadonlySet<string> {
  const { socket } = useOptionalSocket() ?? { socket: null };
  const store = socket ? presenceStore(socket) : null;
  return useSyncExternalStore(
    store
      ? (listener) => {
          store.listeners.add(listener);
          return () => store.listeners.delete(listener);
        }
      : noSubscribe,
    () => store?.online ?? EMPTY,
    () => EMPTY,
  );
}

/** A green "Online" dot next to a customer's name while they have the dashboard open. */
export function OnlineBadge({ userId, className }: { userId: string; className?: string }) {
  const online = useOnlineCustomers().has(userId);
  if (!online) return null;
  return (
    <span className={cn("inline-flex items-center gap-1 text-xs font-medium text-emerald-700", className)} data-testid="online-badge">
      <span aria-hidden className="size-2 rounded-full bg-emerald-500" />
      Online
    </span>
  );
}
