import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, inject } from "vitest";

import { connectPostgres, type Database } from "#db/client";
import { schema } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import { hashToken, randomToken } from "~/utils/tokens.server";

import { connectClient, type ChatClient } from "./chat-helpers";
import { privateRedis, type PrivateRedis } from "./private-services";
import { ensureBuild, freePort, startServer, type ServerProcess } from "./server-process";

/** Two app nodes need what a deployment has: a database of their own, Redis, a load balancer. */

/** A fresh database copied from the migrated test template, dropped by `drop()`. */
export async function createNodesDatabase(adminUrl: string, template: string) {
  const name = `brandlift_chat_nodes_${crypto.randomBytes(5).toString("hex")}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name} template ${template}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database: Database = connectPostgres(url.toString(), { max: 3 });
  return {
    url: url.toString(),
    database,
    async drop() {
      await database.close();
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

/** A customer or staff account with a bearer token, written straight into the nodes' database. */
export async function nodesAccount(database: Database, role: "user" | "team", name: string) {
  const [user] = await database.db
    .insert(schema.users)
    .values({ email: `nodes-${role}-${crypto.randomBytes(4).toString("hex")}@chat.test`, name, role })
    .returning();
  const token = randomToken();
  await database.db
    .insert(schema.sessions)
    .values({ tokenHash: hashToken(token), kind: "bearer", userId: user!.id, expiresAt: new Date(Date.now() + 3600_000) });
  return { id: user!.id, name, token };
}

/**
 * A TCP load balancer: each connection goes to the first upstream that accepts it, like a proxy
 * with health checks and no sticky sessions. Killing a node sends its clients to the next one.
 */
export async function failoverProxy(upstreams: number[]) {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((downstream) => {
    sockets.add(downstream);
    downstream.on("close", () => sockets.delete(downstream));
    downstream.on("error", () => downstream.destroy());
    const tryUpstream = (index: number) => {
      if (index >= upstreams.length) return downstream.destroy();
      const upstream = net.connect(upstreams[index]!, "127.0.0.1");
      let connected = false;
      upstream.once("connect", () => {
        connected = true;
        sockets.add(upstream);
        downstream.pipe(upstream).pipe(downstream);
        upstream.on("close", () => downstream.destroy());
        downstream.on("close", () => upstream.destroy());
      });
      upstream.on("error", () => {
        upstream.destroy();
        if (connected) downstream.destroy();
        else tryUpstream(index + 1);
      });
    };
    tryUpstream(0);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** What `startTwoNodes` gives a suite once its `beforeAll` has run. */
export interface TwoNodes {
  database: Awaited<ReturnType<typeof createNodesDatabase>>;
  a: ServerProcess;
  b: ServerProcess;
  /** A socket to one node, closed after the suite. */
  connect(url: string, token: string): Promise<ChatClient>;
}

/**
 * Two production nodes on one fresh PostgreSQL database and a private Redis, started before the
 * suite and stopped (with the sockets `connect` opened) after it. `name` labels their data folders.
 */
export function startTwoNodes(name: string): TwoNodes {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `brandlift-${name}-`));
  const sockets: ChatClient[] = [];
  let redis: PrivateRedis | undefined;
  const nodes = {
    async connect(url: string, token: string) {
      const socket = await connectClient(url, { token });
      sockets.push(socket);
      return socket;
    },
  } as TwoNodes;
  beforeAll(async () => {
    ensureBuild();
    if (!env.databaseUrl) throw new Error("DATABASE_URL is not set: this test needs PostgreSQL.");
    nodes.database = await createNodesDatabase(env.databaseUrl, inject("databaseTemplate"));
    redis = await privateRedis();
    const start = (node: string) =>
      startServer({ DATABASE_URL: nodes.database.url, REDIS_URL: redis!.url, DATA_DIR: path.join(dataDir, node), NODE_ENV: "production" });
    [nodes.a, nodes.b] = await Promise.all([start("a"), start("b")]);
  }, 240_000);
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await Promise.all([nodes.a?.stop("SIGKILL"), nodes.b?.stop("SIGKILL")]);
    await redis?.kill();
    await nodes.database?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);
  return nodes;
}
