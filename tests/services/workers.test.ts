import { execFileSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { io as connect } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";

import { env } from "~/utils/env.server";

import { sendSupport, ThreadClient, type ChatClient } from "../support/chat-helpers";
import { createNodesDatabase, nodesAccount } from "../support/chat-nodes-helpers";
import { parseMetrics } from "../support/prometheus";
import { ensureBuild, runServerExpectingFailure, startServer, type ServerProcess } from "../support/server-process";

/*
 * WEB_CONCURRENCY=2 without Redis: one port, two worker processes, Socket.IO broadcasts between
 * them through the primary (cluster adapter); SIGTERM drains both and the primary exits 0.
 */

const METRICS_TOKEN = "workers-metrics-token";
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "brandlift-workers-"));
let database: Awaited<ReturnType<typeof createNodesDatabase>>;
let server: ServerProcess;
const clients: ThreadClient[] = [];

const workerPids = (pid: number) =>
  execFileSync("ps", ["-o", "pid=", "--ppid", String(pid)], { encoding: "utf8" })
    .split("\n")
    .map((s) => s.trim())
    .filter(Boolean);

/** The pids holding established connections on the server's port (from `ss`). */
const socketHolders = (port: number) =>
  [...execFileSync("ss", ["-tnpH", "state", "established", `( sport = :${port} )`], { encoding: "utf8" }).matchAll(/pid=(\d+)/g)].map((m) => m[1]!);

/** Whether both current workers have logged "server listening" (pino lines carry the pid). */
const bothListen = () => {
  const listening = new Set([...server.output().matchAll(/"pid":(\d+)[^\n]*"msg":"server listening"/g)].map((m) => m[1]));
  const pids = workerPids(server.child.pid!);
  return pids.length === 2 && pids.every((pid) => listening.has(pid));
};

beforeAll(async () => {
  ensureBuild();
  if (!env.databaseUrl) throw new Error("DATABASE_URL is not set: this suite needs PostgreSQL.");
  database = await createNodesDatabase(env.databaseUrl, inject("databaseTemplate"));
  server = await startServer({ DATABASE_URL: database.url, WEB_CONCURRENCY: "2", DATA_DIR: dataDir, LOG_LEVEL: "info", METRICS_TOKEN: METRICS_TOKEN });
  // /healthz answers as soon as one worker listens; wait for the second (the primary replaces a
  // worker that fails its boot, e.g. losing a race to seed the catalogue on a fresh database).
  // Wait until both workers have logged that they listen: only then does the primary hand
  // connections to both (under a loaded CI a worker may listen many seconds after the first).
  for (let i = 0; i < 900 && !bothListen(); i++) await new Promise((r) => setTimeout(r, 100));
  if (!bothListen()) throw new Error(`two workers did not both listen:\n${server.output()}`);
  for (let i = 0; i < 100; i++) {
    const ok = await Promise.all(
      [0, 1, 2, 3].map(() =>
        fetch(`${server.url}/healthz`).then(
          (r) => r.ok,
          () => false,
        ),
      ),
    );
    if (ok.every(Boolean)) break;
    await new Promise((r) => setTimeout(r, 100));
  }
}, 150_000);

afterAll(async () => {
  for (const client of clients) client.close();
  await server?.stop("SIGKILL");
  await database?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

describe("WEB_CONCURRENCY workers behind one port", () => {
  test("two workers serve; chat reaches sockets held by either worker", async () => {
    expect(workerPids(server.child.pid!)).toHaveLength(2);
    const staff = await nodesAccount(database.database, "team", "Wes Worker");
    const customers: Awaited<ReturnType<typeof nodesAccount>>[] = [];
    const atStaff: ThreadClient[] = [];
    const atCustomers: ThreadClient[] = [];
    // The primary hands connections to the workers in turn, once each worker listens (the second
    // may start listening a moment after the first): six pairs, and more until both hold some of
    // these sockets, so that some customer and staff pairs sit on different workers.
    for (let i = 0; i < 6 || (new Set(socketHolders(server.port)).size < 2 && i < 30); i++) {
      const c = await nodesAccount(database.database, "user", `Cora ${i}`);
      customers.push(c);
      atStaff.push(new ThreadClient(server.url, staff.token, c.id));
      atCustomers.push(new ThreadClient(server.url, c.token, c.id));
      clients.push(atStaff.at(-1)!, atCustomers.at(-1)!);
      await Promise.all([atStaff.at(-1)!.connected(), atCustomers.at(-1)!.connected()]);
    }
    const holders = new Set(socketHolders(server.port));
    expect([...holders].sort()).toEqual(workerPids(server.child.pid!).sort());
    for (const [i, customer] of atCustomers.entries()) {
      expect((await customer.send(`from customer ${i}`)).ok).toBe(true);
      await atStaff[i]!.has([`from customer ${i}`], 5_000);
      expect((await atStaff[i]!.send(`to customer ${i}`, customers[i]!.id)).ok).toBe(true);
      await customer.has([`from customer ${i}`, `to customer ${i}`], 5_000);
    }
  }, 60_000);

  test("a client that can only long-poll keeps one session while its requests land on either worker", async () => {
    const staff = await nodesAccount(database.database, "team", "Pat Poll");
    const customer = await nodesAccount(database.database, "user", "Polly Poll");
    const atStaff = new ThreadClient(server.url, staff.token, customer.id);
    clients.push(atStaff);
    await atStaff.connected();
    const polling: ChatClient = connect(server.url, {
      path: "/socket.io",
      transports: ["polling"],
      auth: { token: customer.token },
      reconnection: false,
      forceNew: true,
    });
    const lost: string[] = [];
    polling.on("disconnect", (reason) => lost.push(reason));
    try {
      await new Promise<void>((resolve, reject) => {
        polling.once("connect", () => resolve());
        polling.once("connect_error", reject);
      });
      const session = polling.io.engine.id;
      for (let i = 0; i < 12; i++) expect(await sendSupport(polling, { message: `polled ${i}` })).toMatchObject({ ok: true });
      await atStaff.has(
        Array.from({ length: 12 }, (_, i) => `polled ${i}`),
        10_000,
      );
      expect(lost).toEqual([]);
      expect(polling.io.engine.id).toBe(session);
    } finally {
      polling.close();
    }

    // A client that starts polling and upgrades: the upgrade, too, reaches the session's worker.
    const upgrading: ChatClient = connect(server.url, {
      path: "/socket.io",
      transports: ["polling", "websocket"],
      auth: { token: customer.token },
      reconnection: false,
      forceNew: true,
    });
    try {
      const upgraded = new Promise<string>((resolve) =>
        upgrading.io.on("open", () => upgrading.io.engine.once("upgrade", (transport) => resolve(transport.name))),
      );
      await new Promise<void>((resolve, reject) => {
        upgrading.once("connect", () => resolve());
        upgrading.once("connect_error", reject);
      });
      expect(await upgraded).toBe("websocket");
      expect(await sendSupport(upgrading, { message: "after the upgrade" })).toMatchObject({ ok: true });
      await atStaff.has(["after the upgrade"], 10_000);
    } finally {
      upgrading.close();
    }
  }, 60_000);

  test("one scrape of /metrics counts the requests of both workers", async () => {
    // Each request and each scrape on a connection of its own: the primary hands them to the workers in turn.
    const get = (path: string, headers: Record<string, string> = {}) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        http
          .get(`${server.url}${path}`, { agent: false, headers }, (res) => {
            let body = "";
            res.on("data", (chunk: Buffer) => (body += chunk));
            res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
          })
          .on("error", reject);
      });
    for (let i = 0; i < 20; i++) expect((await get("/api/services")).status).toBe(200);
    for (let scrape = 0; scrape < 4; scrape++) {
      const { status, body } = await get("/metrics", { Authorization: `Bearer ${METRICS_TOKEN}` });
      expect(status).toBe(200);
      const served = parseMetrics(body)
        .filter((s) => s.name === "http_request_duration_seconds_count" && s.labels.route === "/api/services")
        .reduce((sum, s) => sum + s.value, 0);
      expect(served).toBe(20);
    }
  }, 60_000);

  test("a page both workers answer from memory renders again on each once one of them changed data", async () => {
    const customer = await nodesAccount(database.database, "user", "Wendy Worker");
    const port = new URL(server.url).port;
    // A new connection each time: the primary hands them to the workers in turn.
    const page = () =>
      new Promise<{ hit: boolean; body: string }>((resolve, reject) => {
        const headers = { Authorization: `Bearer ${customer.token}`, "Accept-Encoding": "identity" };
        http
          .get({ host: "127.0.0.1", port, path: "/dashboard/account", agent: false, headers }, (res) => {
            let body = "";
            res.setEncoding("utf8");
            res.on("data", (chunk: string) => (body += chunk));
            res.on("end", () => resolve({ hit: res.headers["x-page-cache"] === "hit", body }));
          })
          .on("error", reject);
      });
    // Four answers in a row from memory: both workers keep the page.
    let kept = 0;
    for (let tries = 0; tries < 200 && kept < 4; tries++) kept = (await page()).hit ? kept + 1 : 0;
    expect(kept).toBe(4);

    const renamed = await fetch(`${server.url}/api/account`, {
      method: "PATCH",
      headers: { Authorization: `Bearer ${customer.token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ name: "Wendy Renamed" }),
    });
    expect(renamed.status).toBe(200);
    // The word goes through the primary: within 2 s (PAGE_CACHE_SECONDS is 5), four answers in a row show the new name.
    let renewed = 0;
    for (let tries = 0; tries < 100 && renewed < 4; tries++) {
      const answer = await page();
      renewed = answer.body.includes("Wendy Renamed") && !answer.body.includes("Wendy Worker") ? renewed + 1 : 0;
      if (renewed === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(renewed).toBe(4);
  }, 60_000);

  test("SIGTERM stops every worker and the primary exits 0", async () => {
    const pids = workerPids(server.child.pid!);
    expect(pids).toHaveLength(2);
    expect(await server.stop("SIGTERM")).toBe(0);
    for (const pid of pids) expect(() => process.kill(Number(pid), 0)).toThrow();
    // The workers' private polling sockets are gone with them.
    expect(fs.readdirSync(os.tmpdir()).filter((name) => name.startsWith(`brandlift-${server.child.pid}-w`))).toEqual([]);
  }, 30_000);

  test("more than one worker on the embedded database is refused at boot with the reason", async () => {
    const { code, output } = await runServerExpectingFailure({ WEB_CONCURRENCY: "2", DATA_DIR: path.join(dataDir, "embedded") });
    expect(code).not.toBe(0);
    expect(output).toContain("WEB_CONCURRENCY: more than one worker needs DATABASE_URL");
  });
});
