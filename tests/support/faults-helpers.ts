import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { asc, eq } from "drizzle-orm";

import { connectPostgres, type Database } from "#db/client";
import { supportRoomId } from "~/domain/chat";
import { schema } from "~/utils/db.server";
import { hashPassword } from "~/utils/password.server";

import { delay, ThreadClient } from "./chat-helpers";
import { nodesAccount } from "./chat-nodes-helpers";
import { createDatabase, privatePostgres, privateRedis, type PrivatePostgres, type PrivateRedis } from "./private-services";
import { startServer, type ServerProcess } from "./server-process";

/** The fault suites: two (or three) production nodes on a private PostgreSQL and a private Redis. */

export interface FaultRig {
  pg: PrivatePostgres;
  redis: PrivateRedis;
  databaseUrl: string;
  database: Database;
  nodes: ServerProcess[];
  startNode(name: string, env?: Record<string, string>): Promise<ServerProcess>;
  account(role: "user" | "team", name: string): Promise<{ id: string; name: string; token: string; email: string; password: string }>;
  thread(url: string, account: { token: string }, customerId: string): ThreadClient;
  storedTexts(customerId: string): Promise<string[]>;
  teardown(): Promise<void>;
}

export async function faultRig(name: string): Promise<FaultRig> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `brandlift-${name}-`));
  const [pg, redis] = await Promise.all([privatePostgres(), privateRedis()]);
  const databaseUrl = await createDatabase(pg, "brandlift");
  const database = connectPostgres(databaseUrl, { max: 3 });
  const nodes: ServerProcess[] = [];
  const clients: ThreadClient[] = [];
  const rig: FaultRig = {
    pg,
    redis,
    databaseUrl,
    database,
    nodes,
    async startNode(node, env = {}) {
      const server = await startServer({
        DATABASE_URL: databaseUrl,
        REDIS_URL: redis.url,
        DATA_DIR: path.join(dataDir, node),
        LOG_LEVEL: "warn",
        ...env,
      });
      nodes.push(server);
      return server;
    },
    async account(role, accountName) {
      const account = await nodesAccount(database, role, accountName);
      const password = "fault suite password";
      await database.db
        .update(schema.users)
        .set({ passwordHash: await hashPassword(password) })
        .where(eq(schema.users.id, account.id));
      const [user] = await database.db.select({ email: schema.users.email }).from(schema.users).where(eq(schema.users.id, account.id));
      return { ...account, email: user!.email, password };
    },
    thread(url, account, customerId) {
      const client = new ThreadClient(url, account.token, customerId);
      clients.push(client);
      return client;
    },
    async storedTexts(customerId) {
      const rows = await database.db
        .select({ message: schema.chatMessages.message })
        .from(schema.chatMessages)
        .where(eq(schema.chatMessages.roomId, supportRoomId(customerId)))
        .orderBy(asc(schema.chatMessages.createdAt), asc(schema.chatMessages.id));
      return rows.map((r) => r.message);
    },
    async teardown() {
      for (const client of clients) client.close();
      // Kept for a look after a failure: what each node printed.
      nodes.forEach((node, i) => fs.writeFileSync(path.join(os.tmpdir(), `brandlift-${name}-node-${i}.log`), node.output()));
      await Promise.all(nodes.map((n) => n.stop("SIGKILL")));
      await database.close().catch(() => {});
      await redis.kill();
      await pg.destroy();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return rig;
}

/** Polls until `check` resolves truthy; resolves with the milliseconds it took. */
export async function within(timeoutMs: number, what: string, check: () => Promise<boolean> | boolean): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await Promise.resolve(check()).catch(() => false)) return Date.now() - started;
    if (Date.now() - started > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await delay(50);
  }
}

export async function healthOf(node: ServerProcess) {
  const response = await fetch(`${node.url}/healthz`);
  return { status: response.status, body: (await response.json()) as { status: string; database: string; redis: string } };
}

/** What a node printed that says an error escaped: the process policy logs these. */
export function escapedErrors(node: ServerProcess) {
  return node
    .output()
    .split("\n")
    .filter((line) => /unhandled promise rejection|uncaught exception|MaxRetriesPerRequestError/i.test(line));
}

/** A figure for the "Faults survived" table of docs/faults.md. */
export function figure(name: string, value: number | string) {
  console.log(`FAULTS ${name}: ${value}`);
  const file = path.join(os.tmpdir(), "brandlift-fault-figures.json");
  const all = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, unknown>) : {};
  all[name] = value;
  fs.writeFileSync(file, JSON.stringify(all, null, 2));
}
