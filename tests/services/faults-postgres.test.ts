import { io as connect } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { delay } from "../support/chat-helpers";
import { escapedErrors, faultRig, figure, healthOf, within, type FaultRig } from "../support/faults-helpers";
import { ensureBuild, type ServerProcess } from "../support/server-process";

/*
 * PostgreSQL restarts cost requests, never the node: two production nodes on a
 * private PostgreSQL cluster that this suite stops (pg_ctl -m fast) and starts mid-traffic.
 */

let rig: FaultRig;
let nodeA: ServerProcess;
let nodeB: ServerProcess;

beforeAll(async () => {
  ensureBuild();
  rig = await faultRig("faults-postgres");
  [nodeA, nodeB] = await Promise.all([rig.startNode("a"), rig.startNode("b")]);
}, 240_000);

afterAll(async () => {
  await rig?.teardown();
}, 60_000);

interface Sample {
  at: number;
  status: number;
}

/** GETs an /api route on every node over and over until stopped; every answer is kept. */
function apiTraffic(nodes: ServerProcess[], token: string) {
  const samples: Sample[] = [];
  let running = true;
  const loops = nodes.map(async (node) => {
    while (running) {
      const status = await fetch(`${node.url}/api/services/my-purchases`, {
        headers: { Authorization: `Bearer ${token}` },
        signal: AbortSignal.timeout(5000),
      }).then(
        (r) => r.status,
        () => 0,
      );
      samples.push({ at: Date.now(), status });
      await delay(50);
    }
  });
  return {
    samples,
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

describe("PostgreSQL stops and starts again mid-traffic", () => {
  test("requests get 503s (API, screens, /healthz), the nodes stay up, and serve again without a restart; nothing acknowledged is lost", async () => {
    const customer = await rig.account("user", "Paula Postgres");
    const staff = await rig.account("team", "Sam Staff");
    const atA = rig.thread(nodeA.url, customer, customer.id);
    const atB = rig.thread(nodeB.url, staff, customer.id);
    await Promise.all([atA.connected(), atB.connected()]);
    const pids = [nodeA.child.pid, nodeB.child.pid];

    const traffic = apiTraffic([nodeA, nodeB], customer.token);
    const acknowledged: string[] = [];
    const refused: string[] = [];
    let chatting = true;
    const chat = (async () => {
      for (let i = 1; chatting; i++) {
        const text = `traffic ${i}`;
        const result = await atA.send(text).catch(() => ({ ok: false }) as const);
        (result.ok ? acknowledged : refused).push(text);
        await delay(50);
      }
    })();

    await within(10_000, "traffic flows", () => traffic.samples.filter((s) => s.status === 200).length >= 4 && acknowledged.length >= 2);
    await rig.pg.stop();
    const stoppedAt = Date.now();
    try {
      // The API answers 503 in the error shape.
      await within(10_000, "a 503 from the API", () => traffic.samples.some((s) => s.at > stoppedAt && s.status === 503));
      const api = await fetch(`${nodeB.url}/api/services/my-purchases`, { headers: { Authorization: `Bearer ${customer.token}` } });
      expect(api.status).toBe(503);
      expect(api.headers.get("retry-after")).toBe("5");
      expect(await api.json()).toMatchObject({ success: false, status: "error", code: "UNAVAILABLE", message: expect.any(String) });

      // Screens show the error page; /healthz says the database is down.
      const screen = await fetch(`${nodeA.url}/dashboard/reports`, { headers: { Authorization: `Bearer ${customer.token}` } });
      expect(screen.status).toBe(503);
      expect(screen.headers.get("content-type")).toContain("text/html");
      expect(await screen.text()).toContain("</html>");
      for (const node of [nodeA, nodeB]) {
        expect(await healthOf(node)).toEqual({ status: 503, body: { status: "unavailable", database: "down", redis: "up" } });
      }

      // Chat cannot store, so it acknowledges nothing; a new socket is told to come back later.
      expect(await atA.send("while the database is down")).toMatchObject({ ok: false });
      const handshake = await new Promise<string>((resolve) => {
        const socket = connect(nodeB.url, {
          path: "/socket.io",
          transports: ["websocket"],
          reconnection: false,
          forceNew: true,
          auth: { token: customer.token },
        });
        socket.once("connect", () => (socket.close(), resolve("connected")));
        socket.once("connect_error", (error) => (socket.close(), resolve(error.message)));
      });
      expect(handshake).toBe("unavailable");

      // Traffic goes on against the stopped database for a while: every answer is a 503, none a 500.
      await within(15_000, "20 API answers during the outage", () => traffic.samples.filter((s) => s.at > stoppedAt).length >= 20).catch((error: Error) => {
        throw new Error(`${error.message}: ${JSON.stringify(traffic.samples.map((s) => [s.at - stoppedAt, s.status]))}`);
      });
      expect(refused.length).toBeGreaterThan(0);
    } catch (error) {
      chatting = false;
      await Promise.all([traffic.stop(), chat]);
      await rig.pg.start();
      throw error;
    }

    await rig.pg.start();
    const back = Date.now();
    const recoveryMs = await within(30_000, "both nodes serve the API again", async () => {
      const answers = await Promise.all(
        [nodeA, nodeB].map((node) =>
          fetch(`${node.url}/api/services/my-purchases`, { headers: { Authorization: `Bearer ${customer.token}` } }).then((r) => r.status),
        ),
      );
      return answers.every((status) => status === 200);
    });
    figure("PostgreSQL back → /api 200 on both nodes (ms)", recoveryMs);
    expect(recoveryMs).toBeLessThan(3000);
    const healthyMs = await within(10_000, "/healthz ok on both nodes", async () =>
      (await Promise.all([healthOf(nodeA), healthOf(nodeB)])).every((h) => h.status === 200 && h.body.status === "ok" && h.body.database === "up"),
    );
    figure("PostgreSQL back → /healthz ok on both nodes (ms)", recoveryMs + healthyMs);

    const chatBackMs = await within(10_000, "chat acknowledges again", () =>
      acknowledged.some((t) => Number(t.split(" ")[1]) > Number(refused.at(-1)?.split(" ")[1] ?? 0)),
    );
    figure("PostgreSQL back → chat acknowledges again (ms)", chatBackMs + recoveryMs);
    chatting = false;
    await chat;
    await traffic.stop();

    // Never a 500 or a dropped connection: 200 before and after, 503 while the database was away.
    const statuses = new Set(traffic.samples.map((s) => s.status));
    expect([...statuses].sort()).toEqual([200, 503]);
    figure("PostgreSQL outage: API answers 503 (count)", traffic.samples.filter((s) => s.status === 503).length);
    figure("PostgreSQL outage (stop → start, ms)", back - stoppedAt);

    // Same processes throughout: nothing restarted.
    expect([nodeA.child.pid, nodeB.child.pid]).toEqual(pids);
    for (const node of [nodeA, nodeB]) {
      expect(node.child.exitCode, node.output()).toBeNull();
      expect(escapedErrors(node)).toEqual([]);
    }

    // Everything acknowledged is stored and reached the other node; live delivery works.
    const stored = await rig.storedTexts(customer.id);
    const lost = acknowledged.filter((t) => !stored.includes(t));
    figure("PostgreSQL outage: chat messages acknowledged", acknowledged.length);
    figure("PostgreSQL outage: acknowledged messages lost", lost.length);
    expect(lost).toEqual([]);
    expect((await atB.send("after the restart", customer.id)).ok).toBe(true);
    await atA.has(["after the restart"], 5000);
    await atB.has(acknowledged, 10_000);
  }, 120_000);
});
