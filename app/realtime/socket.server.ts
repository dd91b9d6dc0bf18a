import type http from "node:http";
import { createAdapter } from "@socket.io/redis-adapter";
import { Server } from "socket.io";
import { resolveIdentity } from "~/utils/auth.server";
import { env } from "~/utils/env.server";
import { logger } from "~/utils/logger.server";
import { createRedis } from "~/utils/redis.server";
import type { ClientToServerEvents, ServerToClientEvents, SocketData } from "./events";

export type IoServer = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

export const TEAM_ROOM = "team";

/** Socket.IO on the app's own http.Server; Redis adapter with REDIS_URL so nodes share rooms. */
export function attachSocketServer(httpServer: http.Server): IoServer {
  const io: IoServer = new Server(httpServer, { path: "/socket.io", serveClient: false });

  if (env.redisUrl) {
    const pub = createRedis(env.redisUrl);
    const sub = pub.duplicate();
    io.adapter(createAdapter(pub, sub));
    httpServer.once("close", () => {
      pub.disconnect();
      sub.disconnect();
    });
  }

  // The same identity functions as HTTP: a bearer token (auth.token or ?token=) or the session cookie.
  io.use(async (socket, next) => {
    try {
      const auth = socket.handshake.auth as { token?: unknown };
      const query = socket.handshake.query.token;
      const token = typeof auth?.token === "string" ? auth.token : typeof query === "string" ? query : null;
      const identity = await resolveIdentity(token, token ? null : socket.handshake.headers.cookie ?? null);
      if (!identity) return next(new Error("unauthorized"));
      socket.data.user = { id: identity.user.id, name: identity.user.name, role: identity.user.role, profileImage: identity.user.profileImage };
      next();
    } catch (error) {
      logger.error({ err: error }, "socket handshake failed");
      next(new Error("unauthorized"));
    }
  });

  io.on("connection", (socket) => {
    const user = socket.data.user;
    if (user.role === "team") {
      void socket.join(TEAM_ROOM);
      socket.emit("teamRoomJoined", { roomId: TEAM_ROOM });
    }
  });

  return io;
}
