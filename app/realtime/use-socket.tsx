import { createContext, useContext, useEffect, useState, type ReactNode } from "react";
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
}

const SocketContext = createContext<SocketContextValue | null>(null);

/**
 * One Socket.IO connection for everything below it (chat panels, presence, unread badges).
 * Same origin, the session cookie authenticates; websocket first so app nodes need no sticky
 * sessions, long-polling only as a fallback. Unmounting closes the connection.
 */
export function SocketProvider({ children }: { children: ReactNode }) {
  const [value, setValue] = useState<SocketContextValue>({ socket: null, status: "connecting" });

  useEffect(() => {
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
    const onConnectError = (error: Error) => {
      // Spec §7: connection errors are only logged, never shown as an error notice.
      console.warn("chat connection failed:", error.message);
      if (error.message === "unauthorized") set("offline");
      else set(socket.active ? "reconnecting" : "offline");
    };
    socket.on("connect", onConnect);
    socket.on("disconnect", onDisconnect);
    socket.on("connect_error", onConnectError);
    return () => {
      socket.off("connect", onConnect);
      socket.off("disconnect", onDisconnect);
      socket.off("connect_error", onConnectError);
      socket.disconnect();
    };
  }, []);

  return <SocketContext.Provider value={value}>{children}</SocketContext.Provider>;
}

/** The shared socket, or null outside a SocketProvider. */
export function useOptionalSocket(): SocketContextValue | null {
  return useContext(SocketContext);
}

export function useSocket(): SocketContextValue {
  const value = useContext(SocketContext);
  if (!value) throw new Error("useSocket must be used inside <SocketProvider>");
  return value;
}
