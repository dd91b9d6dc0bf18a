import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import { io, type Socket } from "socket.io-client";

import type { ClientToServerEvents, ServerToClientEvents } from "./events";

export type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/**
 * connecting: first attempt; connected: open; reconnecting: it was open (or failed) and is retrying;
 * offline: the server refused us (signed out) — no automatic retry.
 */
export type SocketStatus = "connecting" | "connected" | "reconnecting" | "offline";

interface SocketContextValue {
  socket: ClientSocket | null;
  status: SocketStatus;
  /** Opens the connection for a chat view; the returned function lets it go again. */
  acquire?: () => () => void;
}

const SocketContext = createContext<SocketContextValue | null>(null);

/**
 * One Socket.IO connection for everything below it (chat panels, presence, unread badges).
 * Same origin, the session cookie authenticates; websocket first so app nodes need no sticky
 * sessions, long-polling only as a fallback. It is open only while a chat view needs it
 * (`useSocketConnection()`): closing the chat (another tab) closes the connection, as the spec
 * says; badges and presence listen while it is open. Unmounting closes it too.
 */
export function SocketProvider({ children }: { children: ReactNode }) {
  const [value, setValue] = useState<SocketContextValue>({ socket: null, status: "connecting" });
  const [users, setUsers] = useState(0);
  const acquire = useCallback(() => {
    setUsers((n) => n + 1);
    return () => setUsers((n) => n - 1);
  }, []);
  const wanted = users > 0;

  useEffect(() => {
    if (!wanted) {
      setValue({ socket: null, status: "connecting" });
      return;
    }
    const socket: ClientSocket = io({
      path: "/socket.io",
      transports: ["websocket", "polling"],
      withCredentials: true,
      reconnectionDelay: 500,
      reconnectionDelayMax: 5000,
    });
    const set = (status: SocketStatus) => setValue({ socket, status });
    set("connecting");

    const onConnect = () => set("connected");
    const onDisconnect = (reason: Socket.DisconnectReason) => {
      // "io client disconnect" is our own close on unmount; everything else retries by itself.
      if (reason !== "io client disconnect") set("reconnecting");
    };
    let retry: ReturnType<typeof setTimeout> | undefined;
    const onConnectError = (error: Error) => {
      // Connection errors are only logged, never shown as an error notice.
      console.warn("chat connection failed:", error.message);
      if (error.message === "unauthorized") set("offline");
      else if (socket.active) set("reconnecting");
      else if (error.message === "unavailable") {
        // The server could not check who we are (its database is away): it refused for now, not for good.
        set("reconnecting");
        retry = setTimeout(() => socket.connect(), 3000);
      } else set("offline");
    };
    socket.on("connect", onConnect);
    socket.on("disconnect", onDisconnect);
    socket.on("connect_error", onConnectError);
    return () => {
      socket.off("connect", onConnect);
      socket.off("disconnect", onDisconnect);
      socket.off("connect_error", onConnectError);
      clearTimeout(retry);
      socket.disconnect();
    };
  }, [wanted]);

  const context = useMemo(() => ({ ...value, acquire }), [value, acquire]);
  return <SocketContext.Provider value={context}>{children}</SocketContext.Provider>;
}

/** A chat view: keeps the provider's connection open while mounted. */
export function useSocketConnection() {
  const acquire = useContext(SocketContext)?.acquire;
  useEffect(() => acquire?.(), [acquire]);
}

/** The shared socket, or null outside a SocketProvider. */
export function useOptionalSocket(): SocketContextValue | null {
  return useContext(SocketContext);
}
