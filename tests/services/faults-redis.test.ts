import { io as connect } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { delay, type ChatClient } from "../support/chat-helpers";
import { escapedErrors, faultRig, figure, healthOf, within, type FaultRig } from "../support/faults-helpers";
import { ensureBuild, type ServerProcess } from "../support/server-process";

/*
 * Redis is never a single point of failure: two production nodes on a private
 * PostgreSQL and a private redis-server that this suite kills with SIGKILL and starts again.
 */

let rig: FaultRig;
let nodeA: ServerProcess;
let nodeB: ServerProcess;

beforeAll(async () => {
  ensureBuild();
  rig = await faultRig("faults-redis");
  [nodeA, nodeB] = await Promise.all([rig.startNode("a"), rig.startNode("b")]);
}, 240_000);

afterAll(async () => {
  await rig?.teardown();
}, 60_000);

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, { method: "POST", headers: { "Content-Type": "application/json", ...headers }, body: JSON.stringify(body) });

function expectAlive(...nodes: ServerProcess[]) {
  for (const node of nodes) {
    expect(node.child.exitCode, node.output()).toBeNull();
    expect(escapedErrors(node)).toEqual([]);
  }
}

/** A signed-in page of a customer's: its status, and whether it was answered from memory. */
async function signedInPage(base: string, token: string) {
  const response = await fetch(`${base}/dashboard/account`, { headers: { Authorization: `Bearer ${token}` }, redirect: "manual" });
  await response.arrayBuffer();
  return { status: response.status, fromMemory: response.headers.get("x-page-cache") === "hit" };
}

describe("Redis killed while customers connect and send", () => {
  test("both nodes keep serving; every acknowledged message is stored; delivery and resync resume when Redis returns", async () => {
    const customer = await rig.account("user", "Rita Redis");
    const staff = await rig.account("team", "Sam Staff");
    const atA = rig.thread(nodeA.url, customer, customer.id);
    const atB = rig.thread(nodeB.url, staff, customer.id);
    await Promise.all([atA.connected(), atB.connected()]);
    const resyncs = { a: 0, b: 0 };
    atA.socket.on("resync", () => (resyncs.a += 1));
    atB.socket.on("resync", () => (resyncs.b += 1));
    await delay(200);
    const acknowledged: string[] = [];
    const send = async (client: typeof atA, text: string, userId?: string) => {
      const result = await client.send(text, userId);
      if (result.ok) acknowledged.push(text);
      return result;
    };
    expect(await send(atA, "before the outage"), nodeA.output()).toMatchObject({ ok: true });
    await atB.has(["before the outage"], 5000);

    await rig.redis.kill();
    let late: Awaited<ReturnType<FaultRig["account"]>>;
    try {
      // A customer connects to each node now (the userConnected broadcast to the team) and writes.
      late = await rig.account("user", "Lee Late");
      const lateA = rig.thread(nodeA.url, late, late.id);
      const lateB = rig.thread(nodeB.url, late, late.id);
      await Promise.all([lateA.connected(), lateB.connected()]);
      for (let i = 1; i <= 5; i++) {
        expect((await send(atA, `during the outage ${i}`)).ok).toBe(true);
        expect((await send(atB, `reply during the outage ${i}`, customer.id)).ok).toBe(true);
        expect((await send(i % 2 ? lateA : lateB, `late customer ${i}`)).ok).toBe(true);
      }

      // HTTP that does not need Redis: answered, and fast (rate limits fall back to memory at once).
      const started = Date.now();
      const forgot = await post(`${nodeA.url}/api/auth/forgot-password`, { email: customer.email });
      const forgotMs = Date.now() - started;
      expect(forgot.status).toBe(200);
      expect(forgotMs).toBeLessThan(1000);
      figure("forgot-password while Redis is down (ms)", forgotMs);
      const login = await post(`${nodeB.url}/api/auth/login`, { email: customer.email, password: customer.password });
      expect(login.status).toBe(200);
      // The sign-in limit (10 a minute) still holds, counted in memory: wrong passwords get 401 until it is spent, then 429.
      const wrong = [];
      for (let i = 0; i < 11; i++) wrong.push((await post(`${nodeB.url}/api/auth/login`, { email: late.email, password: "not the password" })).status);
      const limited = wrong.indexOf(429);
      expect(limited).toBeGreaterThanOrEqual(9);
      expect(wrong.slice(0, limited)).toEqual(Array<number>(limited).fill(401));
      expect(wrong.slice(limited)).toEqual(Array<number>(wrong.length - limited).fill(429));
      for (const node of [nodeA, nodeB]) {
        expect(await healthOf(node)).toEqual({ status: 200, body: { status: "degraded", database: "up", redis: "down" } });
      }
      // A change on the other node could not be heard now: every signed-in page renders (decision 326).
      for (let i = 0; i < 3; i++) {
        const screen = await signedInPage(nodeB.url, customer.token);
        expect(screen).toEqual({ status: 200, fromMemory: false });
      }
      expectAlive(nodeA, nodeB);
    } catch (error) {
      await rig.redis.start();
      throw error;
    }

    const redisBack = Date.now();
    await rig.redis.start();
    const healthyMs = await within(15_000, "both nodes see Redis again", async () =>
      (await Promise.all([healthOf(nodeA), healthOf(nodeB)])).every((h) => h.body.status === "ok"),
    );
    figure("Redis back → /healthz ok on both nodes (ms)", healthyMs);
    // Subscribed again: a page asked again is answered from memory once more.
    await within(10_000, "node B answers a signed-in page from memory again", async () => (await signedInPage(nodeB.url, customer.token)).fromMemory);

    // Each node tells its clients to resync: both sides now hold everything that was acknowledged.
    const customerThread = acknowledged.filter((t) => !t.startsWith("late customer"));
    await atA.has(customerThread, 15_000);
    await atB.has(customerThread, 15_000);
    expect(resyncs.a).toBeGreaterThan(0);
    expect(resyncs.b).toBeGreaterThan(0);

    // Live cross-node delivery works again.
    await within(10_000, "a message from node B reaches node A live", async () => {
      const probe = `after the outage ${Date.now()}`;
      if ((await send(atB, probe, customer.id)).ok !== true) return false;
      return atA
        .has([probe], 1000)
        .then(() => true)
        .catch(() => false);
    });
    figure("Redis back → cross-node delivery (ms)", Date.now() - redisBack);

    const stored = [...(await rig.storedTexts(customer.id)), ...(await rig.storedTexts(late.id))];
    const lost = acknowledged.filter((t) => !stored.includes(t));
    figure("Redis outage: messages acknowledged", acknowledged.length);
    figure("Redis outage: acknowledged messages lost", lost.length);
    expect(lost).toEqual([]);
    expectAlive(nodeA, nodeB);
  }, 90_000);
});

describe("a node boots while Redis is absent", () => {
  test("it serves (degraded), chats on its own, and joins cross-node delivery once Redis is up", async () => {
    await rig.redis.kill();
    let nodeC: ServerProcess;
    let atC: ReturnType<FaultRig["thread"]>;
    let atA: ReturnType<FaultRig["thread"]>;
    try {
      nodeC = await rig.startNode("c");
      expect(await healthOf(nodeC)).toEqual({ status: 200, body: { status: "degraded", database: "up", redis: "down" } });

      const customer = await rig.account("user", "Cora Cold");
      const staff = await rig.account("team", "Sam Staff");
      atC = rig.thread(nodeC.url, customer, customer.id);
      atA = rig.thread(nodeA.url, staff, customer.id);
      await Promise.all([atC.connected(), atA.connected()]);
      expect((await atC.send("hello from a node that booted without Redis")).ok).toBe(true);
      expect((await fetch(`${nodeC.url}/login`)).status).toBe(200);
      const history = await fetch(`${nodeC.url}/api/chat/conversation/${customer.id}`, { headers: { Authorization: `Bearer ${customer.token}` } });
      expect(history.status).toBe(200);
      expectAlive(nodeC);
    } catch (error) {
      await rig.redis.start();
      throw error;
    }

    const redisBack = Date.now();
    await rig.redis.start();
    await within(15_000, "node C sees Redis", async () => (await healthOf(nodeC)).body.status === "ok");
    await atA.has(["hello from a node that booted without Redis"], 15_000);
    await within(10_000, "a message from node C reaches node A live", async () => {
      const probe = `live from C ${Date.now()}`;
      if ((await atC.send(probe)).ok !== true) return false;
      return atA
        .has([probe], 1000)
        .then(() => true)
        .catch(() => false);
    });
    figure("boot without Redis → cross-node delivery after Redis starts (ms)", Date.now() - redisBack);
    expectAlive(nodeA, nodeB, nodeC);
  }, 90_000);
});

describe("a slow Redis (the process stopped: connections open, no answers)", () => {
  test("requests and chat are answered within its 1 s command timeout; nothing ends; delivery goes on when it wakes", async () => {
    await within(15_000, "Redis up on both nodes", async () => (await Promise.all([healthOf(nodeA), healthOf(nodeB)])).every((h) => h.body.redis === "up"));
    const customer = await rig.account("user", "Sid Slow");
    const staff = await rig.account("team", "Sam Staff");
    const atA = rig.thread(nodeA.url, customer, customer.id);
    const atB = rig.thread(nodeB.url, staff, customer.id);
    await Promise.all([atA.connected(), atB.connected()]);
    await delay(200);

    rig.redis.pause();
    try {
      let started = Date.now();
      const forgot = await post(`${nodeA.url}/api/auth/forgot-password`, { email: customer.email });
      const forgotMs = Date.now() - started;
      expect(forgot.status).toBe(200);
      expect(forgotMs).toBeLessThan(3000);
      figure("forgot-password while Redis hangs (ms)", forgotMs);
      started = Date.now();
      expect((await atA.send("while Redis hangs")).ok).toBe(true);
      figure("chat message acknowledged while Redis hangs (ms)", Date.now() - started);
      // After the first timeout the node stops waiting for it: the next requests are answered at once.
      started = Date.now();
      const again = await post(`${nodeA.url}/api/auth/forgot-password`, { email: customer.email });
      const againMs = Date.now() - started;
      expect(again.status).toBe(200);
      expect(againMs).toBeLessThan(500);
      figure("forgot-password after the first timeout while Redis hangs (ms)", againMs);
      expect((await fetch(`${nodeB.url}/healthz`)).status).toBe(200);
    } finally {
      rig.redis.resume();
    }
    expect(await rig.storedTexts(customer.id)).toEqual(["while Redis hangs"]);
    await atB.has(["while Redis hangs"], 15_000);
    await within(10_000, "a message from node B reaches node A live", async () => {
      const probe = `after the hang ${Date.now()}`;
      if ((await atB.send(probe, customer.id)).ok !== true) return false;
      return atA
        .has([probe], 1000)
        .then(() => true)
        .catch(() => false);
    });
    expectAlive(nodeA, nodeB);
  }, 60_000);
});

describe("revocation on every node", () => {
  test("logging out on node A disconnects the same token's sockets on node B at once", async () => {
    await within(15_000, "Redis up on both nodes", async () => (await Promise.all([healthOf(nodeA), healthOf(nodeB)])).every((h) => h.body.redis === "up"));
    const customer = await rig.account("user", "Lou Logout");
    const open = (url: string) =>
      new Promise<ChatClient>((resolve, reject) => {
        const socket: ChatClient = connect(url, {
          path: "/socket.io",
          transports: ["websocket"],
          reconnection: false,
          forceNew: true,
          auth: { token: customer.token },
        });
        socket.once("connect", () => resolve(socket));
        socket.once("connect_error", reject);
      });
    const [onA, onB] = await Promise.all([open(nodeA.url), open(nodeB.url)]);
    const ended = [onA, onB].map((socket) => new Promise<string>((resolve) => socket.once("disconnect", resolve)));
    const started = Date.now();
    const response = await post(`${nodeA.url}/api/auth/logout`, {}, { Authorization: `Bearer ${customer.token}` });
    expect(response.status).toBe(200);
    expect(await Promise.all(ended)).toEqual(["io server disconnect", "io server disconnect"]);
    figure("logout on node A → its sockets on A and B disconnected (ms)", Date.now() - started);
  }, 30_000);
});
