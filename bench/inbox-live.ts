/**
 * The live inbox under load (decision 097): two app nodes (`node $BUILD_DIR/server.js`) on one
 * PostgreSQL and one Redis, 2,000 customer sockets split across them, staff watching the inbox on
 * node B. Customers on node A send messages; measured: from the send to `threadUpdated` (the
 * thread's new summary) arriving at staff on node B. Target: p99 < 25 ms.
 *
 *   npm run build
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/brandlift_inbox REDIS_URL=redis://127.0.0.1:6379/8 \
 *     npx tsx bench/inbox-live.ts [--sockets 2000] [--messages 1000] [--rate 50]
 *
 * It creates and drops its own database on that server; the nodes use a private Socket.IO channel
 * name on that Redis only through their database name, so do not point it at a Redis a deployment uses.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import postgres from "postgres";
import { io, type Socket } from "socket.io-client";

import type { Thread } from "../app/domain/inbox";
import type { ClientToServerEvents, ServerToClientEvents } from "../app/realtime/events";
import { hashToken, randomToken } from "../app/utils/tokens.server";
import { ensureBuild, startServer, type ServerProcess } from "../tests/support/server-process";

type Client = Socket<ServerToClientEvents, ClientToServerEvents>;

const { values: args } = parseArgs({
  options: {
    sockets: { type: "string", default: "2000" },
    messages: { type: "string", default: "1000" },
    rate: { type: "string", default: "50" },
  },
});
const SOCKETS = Number(args.sockets);
const MESSAGES = Number(args.messages);
const RATE = Number(args.rate);

const databaseUrl = process.env.DATABASE_URL;
const redisUrl = process.env.REDIS_URL;
if (!databaseUrl?.startsWith("postgres") || !redisUrl) throw new Error("Set DATABASE_URL (PostgreSQL) and REDIS_URL (Redis) for the bench.");

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function main() {
  ensureBuild();
  const dbName = `brandlift_inbox_live_${crypto.randomBytes(4).toString("hex")}`;
  const admin = postgres(databaseUrl!, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${dbName}`);
  const dbUrl = new URL(databaseUrl!);
  dbUrl.pathname = `/${dbName}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "brandlift-inbox-live-"));
  const nodes: ServerProcess[] = [];
  const clients: Client[] = [];
  const sql = postgres(dbUrl.toString(), { max: 4, onnotice: () => {} });
  try {
    const start = (name: string) =>
      startServer({ DATABASE_URL: dbUrl.toString(), REDIS_URL: redisUrl!, DATA_DIR: path.join(dataDir, name), LOG_LEVEL: "error" }, { timeoutMs: 60_000 });
    nodes.push(await start("a"));
    nodes.push(await start("b"));
    const [a, b] = nodes as [ServerProcess, ServerProcess];

    const accounts = Array.from({ length: SOCKETS }, (_, i) => ({ id: crypto.randomUUID(), token: randomToken(), i }));
    const staff = { id: crypto.randomUUID(), token: randomToken() };
    const users = [
      ...accounts.map((c) => ({ id: c.id, email: `live-${c.id}@bench.test`, name: `Customer ${c.i}`, role: "user" })),
      { id: staff.id, email: `live-staff-${staff.id}@bench.test`, name: "Staff", role: "team" },
    ];
    for (let i = 0; i < users.length; i += 1000) await sql`insert into users ${sql(users.slice(i, i + 1000))}`;
    const expires = new Date(Date.now() + 3600_000);
    const sessions = [...accounts, staff].map((x) => ({ token_hash: hashToken(x.token), kind: "bearer", user_id: x.id, expires_at: expires }));
    for (let i = 0; i < sessions.length; i += 1000) await sql`insert into sessions ${sql(sessions.slice(i, i + 1000))}`;

    const connect = (url: string, token: string) =>
      new Promise<Client>((resolve, reject) => {
        const socket: Client = io(url, { transports: ["websocket"], auth: { token }, forceNew: true, reconnection: false });
        socket.once("connect", () => resolve(socket));
        socket.once("connect_error", reject);
      });
    const staffOnB = await connect(b.url, staff.token);
    clients.push(staffOnB);
    const onA: { id: string; socket: Client }[] = [];
    for (let i = 0; i < accounts.length; i += 100) {
      const batch = accounts.slice(i, i + 100);
      const sockets = await Promise.all(batch.map((c) => connect(c.i % 2 === 0 ? a.url : b.url, c.token)));
      sockets.forEach((socket, j) => {
        clients.push(socket);
        if (batch[j]!.i % 2 === 0) onA.push({ id: batch[j]!.id, socket });
      });
    }
    console.log(`connected ${clients.length} sockets (${onA.length} customers on node A, ${clients.length - onA.length - 1} on node B, staff on B)`);
    await sleep(2000);

    // The send time travels in the text; staff on node B stamp the threadUpdated that carries it.
    const latencies: number[] = [];
    staffOnB.on("threadUpdated", (thread: Thread) => {
      const sent = /^live (\d+\.\d+)/.exec(thread.lastMessage?.message ?? "");
      if (sent) latencies.push(performance.now() - Number(sent[1]));
    });
    const interval = 1000 / RATE;
    const t0 = performance.now();
    for (let n = 0; n < MESSAGES; n++) {
      const wait = t0 + n * interval - performance.now();
      if (wait > 0) await sleep(wait);
      const sender = onA[n % onA.length]!;
      sender.socket.emit("supportMessage", { message: `live ${performance.now().toFixed(3)} #${n}` }, () => {});
    }
    const deadline = Date.now() + 10_000;
    while (latencies.length < MESSAGES && Date.now() < deadline) await sleep(100);

    const sorted = [...latencies].sort((x, y) => x - y);
    const report = {
      sockets: clients.length,
      messages: MESSAGES,
      threadUpdatedReceived: latencies.length,
      ratePerSecond: RATE,
      sendToThreadUpdatedOnOtherNodeMs: {
        p50: +percentile(sorted, 50).toFixed(2),
        p95: +percentile(sorted, 95).toFixed(2),
        p99: +percentile(sorted, 99).toFixed(2),
        max: +sorted.at(-1)!.toFixed(2),
      },
    };
    console.log(JSON.stringify(report, null, 2));
    const p99 = report.sendToThreadUpdatedOnOtherNodeMs.p99;
    console.log(
      `\nsend on node A → threadUpdated at staff on node B: p99 ${p99} ms (target < 25 ms): ${p99 < 25 ? "met" : "NOT met"}; load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} CPUs`,
    );
  } finally {
    for (const c of clients) c.close();
    await Promise.all(nodes.map((n) => n.stop("SIGTERM")));
    await sql.end();
    await admin.unsafe(`drop database if exists ${dbName} with (force)`);
    await admin.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
