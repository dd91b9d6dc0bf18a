import { remember } from "@epic-web/remember";

/**
 * Ending a session must end its sockets on every node. Models and routes cannot reach the
 * Socket.IO server (it sits above them), so they announce revocations here and the socket
 * server (app/realtime/socket.server.ts) disconnects the matching rooms across nodes.
 * Calling these before the socket server exists (tests, scripts) is a no-op.
 */

export type SocketRevocation = { kind: "session"; sessionId: string } | { kind: "user"; userId: string };
type Listener = (revocation: SocketRevocation) => void;

const listeners: Set<Listener> = remember("socket-revocation-listeners", () => new Set<Listener>());

/** Disconnects every socket opened with this session (cookie or bearer), on every node. */
export function revokeSocketsOfSession(sessionId: string) {
  emit({ kind: "session", sessionId });
}

/** Disconnects every socket of this user, whatever session opened it, on every node. */
export function revokeSocketsOfUser(userId: string) {
  emit({ kind: "user", userId });
}

/** The socket server subscribes here; returns the unsubscribe function. */
export function onSocketRevocation(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function emit(revocation: SocketRevocation) {
  for (const listener of listeners) listener(revocation);
}
