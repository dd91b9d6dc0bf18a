import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";

import { supportRoomId } from "~/domain/chat";
import { schema } from "~/utils/db.server";
import { env } from "~/utils/env.server";

import { delay, ThreadClient } from "../support/chat-helpers";
import { createNodesDatabase, failoverProxy, nodesAccount } from "../support/chat-nodes-helpers";
import { privateRedis, type PrivateRedis } from "../support/private-services";
import { ensureBuild, startServer, type ServerProcess } from "../support/server-process";

/*
 * Two production app processes (`node build/server.js`) sharing one PostgreSQL database and one
 * Redis: a customer on one node and staff on the other chat; Redis and then a node go away
 * mid-conversation; nothing that was acknowledged is lost.
 */

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "brandlift-chat-nodes-"));
let database: Awaited<ReturnType<typeof createNodesDatabase>>;
let redis: PrivateRedis;
let nodeA: ServerProcess;
let nodeB: ServerProcess;
const clients: ThreadClient[] = [];

async function startNode(name: string) {
  return startServer({ DATABASE_URL: database.url, REDIS_URL: redis.url, DATA_DIR: path.join(dataDir, name), NODE_ENV: "production" });
}

async function storedTexts(customerId: string) {
  const rows = await database.database.db
    .select({ message: schema.chatMessages.message })
    .from(schema.chatMessages)
    .where(eq(schema.chatMessages.roomId, supportRoomId(customerId)))
    .orderBy(asc(schema.chatMessages.createdAt), asc(schema.chatMessages.id));
  return rows.map((r) => r.message);
}

function thread(url: string, account: { token: string }, customerId: string) {
  const client = new ThreadClient(url, account.token, customerId);
  clients.push(client);
  return client;
}

beforeAll(async () => {
  ensureBuild();
  ensureBuild();
  if (!env.databaseUrl) throw new Error("DATABASE_URL is not set: this test needs PostgreSQL.");
  database = await createNodesDatabase(env.databaseUrl, inject("databaseTemplate"));
  redis = await privateRedis();
  [nodeA, nodeB] = await Promise.all([startNode("a"), startNode("b")]);
}, 240_000);

afterAll(async () => {
  for (const client of clients) client.close();
  await Promise.all([nodeA?.stop("SIGKILL"), nodeB?.stop("SIGKILL")]);
  await redis?.kill();
  await database?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

describe("two app nodes sharing PostgreSQL and Redis", () => {
  test("a customer on one node and staff on the other exchange messages both ways, all stored", async () => {
    const customer = await nodesAccount(database.database, "user", "Nora Node");
    const staff = await nodesAccount(database.database, "team", "Sam Staff");
    const atA = thread(nodeA.url, customer, customer.id);
    const atB = thread(nodeB.url, staff, customer.id);
    await Promise.all([atA.connected(), atB.connected()]);
    await delay(200);

    expect((await atA.send("hello from node A")).ok).toBe(true);
    await atB.has(["hello from node A"], 5000);
    expect((await atB.send("hello back from node B", customer.id)).ok).toBe(true);
    await atA.has(["hello back from node B"], 5000);
    expect(await storedTexts(customer.id)).toEqual(["hello from node A", "hello back from node B"]);
  }, 30_000);

  test("staff on one node see who is online on the other: the list, and the last tab closing", async () => {
    const customer = await nodesAccount(database.database, "user", "Olive Online");
    const staff = await nodesAccount(database.database, "team", "Sam Staff");
    const atB = thread(nodeB.url, staff, customer.id);
    await atB.connected();
    const online = () => atB.socket.timeout(5000).emitWithAck("onlineUsers");
    expect(await online()).not.toContain(customer.id);

    const atA = thread(nodeA.url, customer, customer.id);
    const secondTab = thread(nodeA.url, customer, customer.id);
    await Promise.all([atA.connected(), secondTab.connected()]);
    await delay(200);
    expect(await online()).toContain(customer.id);

    const disconnected: string[] = [];
    atB.socket.on("userDisconnected", ({ userId }) => disconnected.push(userId));
    secondTab.close();
    await delay(500);
    expect(disconnected).toEqual([]);
    expect(await online()).toContain(customer.id);
    atA.close();
    for (let i = 0; i < 100 && disconnected.length === 0; i++) await delay(50);
    expect(disconnected).toEqual([customer.id]);
    expect(await online()).not.toContain(customer.id);
  }, 30_000);

  test("a staff reply e-mails a customer only when no socket of theirs is open on any node", async () => {
    const customer = await nodesAccount(database.database, "user", "Away Node");
    const staff = await nodesAccount(database.database, "team", "Sam Staff");
    const [{ email }] = (await database.database.db.select({ email: schema.users.email }).from(schema.users).where(eq(schema.users.id, customer.id))) as [
      { email: string },
    ];
    // The outbox names each e-mail's file after its address; either node's job loop may send it.
    const mails = () =>
      ["a", "b"].flatMap((node) => {
        const outbox = path.join(dataDir, node, "outbox");
        return fs.existsSync(outbox) ? fs.readdirSync(outbox).filter((f) => f.includes(email)) : [];
      });
    const atA = thread(nodeA.url, customer, customer.id);
    const atB = thread(nodeB.url, staff, customer.id);
    await Promise.all([atA.connected(), atB.connected()]);
    await delay(200);

    // Connected to node A: node B's reply reaches them live, and no e-mail goes out.
    expect((await atB.send("while you are here", customer.id)).ok).toBe(true);
    await atA.has(["while you are here"], 5000);
    await delay(1500);
    expect(mails()).toEqual([]);

    // Gone from every node: the next reply is e-mailed.
    atA.close();
    await delay(300);
    expect((await atB.send("are you there", customer.id)).ok).toBe(true);
    for (let i = 0; i < 100 && mails().length === 0; i++) await delay(50);
    expect(mails()).toHaveLength(1);
  }, 30_000);

  test("Redis stops mid-conversation and comes back: every message stored, both sides get all in order", async () => {
    const customer = await nodesAccount(database.database, "user", "Rita Redis");
    const staff = await nodesAccount(database.database, "team", "Sam Staff");
    const atA = thread(nodeA.url, customer, customer.id);
    const atB = thread(nodeB.url, staff, customer.id);
    await Promise.all([atA.connected(), atB.connected()]);
    await delay(200);
    await atA.send("before the outage");
    await atB.has(["before the outage"], 5000);

    await redis.kill();
    try {
      await delay(300);
      // Stored and acknowledged on each node even though the other node cannot hear of it now.
      expect((await atA.send("during the outage 1")).ok).toBe(true);
      expect((await atB.send("reply during the outage", customer.id)).ok).toBe(true);
      expect((await atA.send("during the outage 2")).ok).toBe(true);
    } finally {
      await redis.start();
    }
    const all = ["before the outage", "during the outage 1", "reply during the outage", "during the outage 2"];
    expect(await storedTexts(customer.id)).toEqual(all);

    // After Redis is back each node tells its clients to resync; live delivery works again too.
    await atA.has(all, 15_000);
    await atB.has(all, 15_000);
    await delay(500);
    await atB.send("after the outage", customer.id);
    const final = [...all, "after the outage"];
    // The sender's own copy comes as its own event after the acknowledgement, so each side is waited for.
    await Promise.all([atA.has(final, 10_000), atB.has(final, 10_000)]);
    expect(atA.texts()).toEqual(final);
    expect(atB.texts()).toEqual(final);
    expect(await storedTexts(customer.id)).toEqual(final);
  }, 60_000);

  test("a node is killed: its clients reconnect to the other and catch up", async () => {
    const customer = await nodesAccount(database.database, "user", "Kim Killed");
    const staff = await nodesAccount(database.database, "team", "Sam Staff");
    // The customer goes through a load balancer that prefers node A; staff talk to node B.
    const balancer = await failoverProxy([nodeA.port, nodeB.port]);
    try {
      const viaBalancer = thread(balancer.url, customer, customer.id);
      const atB = thread(nodeB.url, staff, customer.id);
      await Promise.all([viaBalancer.connected(), atB.connected()]);
      await delay(200);
      await viaBalancer.send("hi, on node A");
      await atB.has(["hi, on node A"], 5000);

      await nodeA.stop("SIGKILL");
      await delay(100);
      expect((await atB.send("sent while node A is down 1", customer.id)).ok).toBe(true);
      expect((await atB.send("sent while node A is down 2", customer.id)).ok).toBe(true);

      const all = ["hi, on node A", "sent while node A is down 1", "sent while node A is down 2"];
      await viaBalancer.has(all, 15_000);
      expect(viaBalancer.socket.connected).toBe(true);
      expect((await viaBalancer.send("back, now on node B")).ok).toBe(true);
      await Promise.all([atB.has([...all, "back, now on node B"], 5000), viaBalancer.has([...all, "back, now on node B"], 5000)]);
      expect(viaBalancer.texts()).toEqual([...all, "back, now on node B"]);
      expect(await storedTexts(customer.id)).toEqual([...all, "back, now on node B"]);
    } finally {
      await balancer.close();
    }
  }, 60_000);
});
