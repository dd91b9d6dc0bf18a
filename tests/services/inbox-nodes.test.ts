import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";

import { supportRoomId } from "~/domain/chat";
import type { Thread } from "~/domain/inbox";
import { env } from "~/utils/env.server";

import { collect, connectClient, nextEvent, sendSupport, type ChatClient } from "../support/chat-helpers";
import { createNodesDatabase, nodesAccount } from "../support/chat-nodes-helpers";
import { privateRedis, type PrivateRedis } from "../support/private-services";
import { ensureBuild, startServer, type ServerProcess } from "../support/server-process";

/*
 * The support inbox across two production nodes sharing PostgreSQL and Redis (issue 14): typing,
 * read receipts and threadUpdated reach the other node; assignments from both nodes at once end
 * on one assignee that every staff socket sees.
 */

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "brandlift-inbox-nodes-"));
let database: Awaited<ReturnType<typeof createNodesDatabase>>;
let redis: PrivateRedis;
let nodeA: ServerProcess;
let nodeB: ServerProcess;
const sockets: ChatClient[] = [];

async function connect(url: string, token: string) {
  const socket = await connectClient(url, { token });
  sockets.push(socket);
  return socket;
}

async function patchThread(url: string, token: string, customerId: string, body: unknown) {
  const response = await fetch(`${url}/api/chat/threads/${customerId}`, {
    method: "PATCH",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as { data: Thread } };
}

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

describe("the inbox on two nodes", () => {
  test("typing, a message's threadUpdated and read receipts cross nodes in both directions", async () => {
    const customer = await nodesAccount(database.database, "user", "Nia Nodes");
    const staff = await nodesAccount(database.database, "team", "Stan Staff");
    const atA = await connect(nodeA.url, customer.token);
    const atB = await connect(nodeB.url, staff.token);
    const room = supportRoomId(customer.id);

    // Typing from node A reaches staff on node B (the room subscription may take a moment across Redis).
    await expect
      .poll(
        async () => {
          const typing = nextEvent(atB, "typing", (t) => t.roomId === room, 2500).then(
            () => true,
            () => false,
          );
          atA.emit("typing", { roomId: room });
          return typing;
        },
        { timeout: 15_000 },
      )
      .toBe(true);

    const updated = nextEvent(atB, "threadUpdated", (t) => t.customer._id === customer.id && t.lastMessage?.message === "question from A");
    const sent = await sendSupport(atA, { message: "question from A" });
    if (!sent.ok) throw new Error(sent.error);
    expect(await updated).toMatchObject({ unread: 1, status: "open", customer: { name: "Nia Nodes" } });

    // Staff on B read it: the customer on A sees the receipt, and the team count drops to 0.
    atB.emit("joinRoom", { roomId: room });
    await nextEvent(atB, "supportRoomJoined");
    const receipt = nextEvent(atA, "read", (r) => r.userId === staff.id);
    const cleared = nextEvent(atB, "threadUpdated", (t) => t.customer._id === customer.id && t.unread === 0);
    expect(await atB.timeout(5000).emitWithAck("read", { roomId: room, messageId: sent.message._id })).toEqual({ ok: true });
    expect(await receipt).toEqual({ roomId: room, userId: staff.id, messageId: sent.message._id });
    await cleared;

    // Staff typing on B reaches the customer on A.
    const staffTyping = nextEvent(atA, "typing", (t) => t.userId === staff.id);
    atB.emit("typing", { roomId: room });
    expect(await staffTyping).toMatchObject({ roomId: room, userId: staff.id });
  });

  test("two staff on two nodes assign at once: the last write wins and both see it", async () => {
    const customer = await nodesAccount(database.database, "user", "Cara Contest");
    const ann = await nodesAccount(database.database, "team", "Ann A");
    const bob = await nodesAccount(database.database, "team", "Bob B");
    await sendSupport(await connect(nodeA.url, customer.token), { message: "who takes this?" });
    const annSocket = await connect(nodeA.url, ann.token);
    const bobSocket = await connect(nodeB.url, bob.token);
    const seenByAnn = collect(annSocket, "threadUpdated");
    const seenByBob = collect(bobSocket, "threadUpdated");

    const results = await Promise.all([
      patchThread(nodeA.url, ann.token, customer.id, { assigneeId: ann.id }),
      patchThread(nodeB.url, bob.token, customer.id, { assigneeId: bob.id }),
    ]);
    expect(results.map((r) => r.status)).toEqual([200, 200]);
    const list = await fetch(`${nodeA.url}/api/chat/threads?search=${encodeURIComponent("Cara Contest")}`, {
      headers: { Authorization: `Bearer ${ann.token}` },
    });
    const winner = ((await list.json()) as { data: { threads: Thread[] } }).data.threads[0]!.assignee!._id;
    expect([ann.id, bob.id]).toContain(winner);
    const lastSeen = (seen: Thread[]) => seen.filter((t) => t.customer._id === customer.id);
    await expect.poll(() => lastSeen(seenByAnn).length).toBe(2);
    await expect.poll(() => lastSeen(seenByBob).length).toBe(2);
    // Every staff socket ends on the stored assignee, whichever node it is on.
    expect(lastSeen(seenByAnn).at(-1)!.assignee!._id).toBe(winner);
    expect(lastSeen(seenByBob).at(-1)!.assignee!._id).toBe(winner);
  });
});
