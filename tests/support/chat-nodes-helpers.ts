import crypto from "node:crypto";
import net from "node:net";
import postgres from "postgres";

import { connectPostgres, type Database } from "#db/client";
import { schema } from "~/utils/db.server";
import { hashToken, randomToken } from "~/utils/tokens.server";

import { freePort } from "./server-process";

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
