import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";

import { schema } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import { hashPassword } from "~/utils/password.server";
import { hashToken, randomToken } from "~/utils/tokens.server";

import { connectClient, type ChatClient } from "../support/chat-helpers";
import { createNodesDatabase, nodesAccount } from "../support/chat-nodes-helpers";
import { privateRedis, type PrivateRedis } from "../support/private-services";
import { ensureBuild, startServer, type ServerProcess } from "../support/server-process";

/*
 * Deleting an account on one node ends its sockets on both (issue 25.5): two production nodes
 * sharing PostgreSQL and a private Redis; the customer has sockets on each node, opened with two
 * different tokens; DELETE /api/account on node A disconnects all of them, and neither token works
 * on node B afterwards.
 */

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "brandlift-own-data-nodes-"));
const PASSWORD = "correct-horse-battery";
let database: Awaited<ReturnType<typeof createNodesDatabase>>;
let redis: PrivateRedis;
let nodeA: ServerProcess;
let nodeB: ServerProcess;
const sockets: ChatClient[] = [];

beforeAll(async () => {
  ensureBuild();
  if (!env.databaseUrl) throw new Error("DATABASE_URL is not set: this test needs PostgreSQL.");
  database = await createNodesDatabase(env.databaseUrl, inject("databaseTemplate"));
  redis = await privateRedis();
  const start = (name: string) => startServer({ DATABASE_URL: database.url, REDIS_URL: redis.url, DATA_DIR: path.join(dataDir, name), NODE_ENV: "production" });
  [nodeA, nodeB] = await Promise.all([start("a"), start("b")]);
}, 240_000);

afterAll(async () => {
  for (const socket of sockets) socket.close();
  await Promise.all([nodeA?.stop("SIGKILL"), nodeB?.stop("SIGKILL")]);
  await redis?.kill();
  await database?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

describe("deleting an account with two nodes", () => {
  test("ends its sockets on both nodes, whichever token opened them, and its tokens stop working everywhere", async () => {
    const customer = await nodesAccount(database.database, "user", "Dee Delete");
    await database.database.db
      .update(schema.users)
      .set({ passwordHash: await hashPassword(PASSWORD) })
      .where(eq(schema.users.id, customer.id));
    const secondToken = randomToken();
    await database.database.db
      .insert(schema.sessions)
      .values({ tokenHash: hashToken(secondToken), kind: "bearer", userId: customer.id, expiresAt: new Date(Date.now() + 3600_000) });

    const open = async (url: string, token: string) => {
      const socket = await connectClient(url, { token });
      sockets.push(socket);
      return socket;
    };
    const opened = await Promise.all([
      open(nodeA.url, customer.token),
      open(nodeB.url, customer.token),
      open(nodeA.url, secondToken),
      open(nodeB.url, secondToken),
    ]);
    const ended = opened.map((socket) => new Promise<string>((resolve) => socket.once("disconnect", resolve)));

    const response = await fetch(`${nodeA.url}/api/account`, {
      method: "DELETE",
      headers: { Authorization: `Bearer ${customer.token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ password: PASSWORD }),
    });
    expect(response.status, nodeA.output()).toBe(200);
    expect(await response.json()).toEqual({ status: "success" });
    const reasons = await Promise.race([
      Promise.all(ended),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error("sockets still open 10 s after the deletion")), 10_000)),
    ]);
    expect(reasons).toEqual(Array(4).fill("io server disconnect"));

    for (const token of [customer.token, secondToken]) {
      const account = await fetch(`${nodeB.url}/api/account`, { headers: { Authorization: `Bearer ${token}` } });
      expect(account.status).toBe(401);
    }
    await expect(connectClient(nodeB.url, { token: secondToken })).rejects.toThrow(/unauthorized/);
    const [row] = await database.database.db.select().from(schema.users).where(eq(schema.users.id, customer.id));
    expect(row).toMatchObject({ name: "Deleted customer", passwordHash: null });
  }, 60_000);
});
