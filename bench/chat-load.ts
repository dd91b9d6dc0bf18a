/**
 * Chat load: two app nodes (`node build/server.js`) on one PostgreSQL and one Redis, 2,000
 * customer sockets split across them, staff on each node. Measures the delivery latency of
 * support messages that cross nodes (customer on A → staff on B and back) and the memory each
 * node spends per 1,000 open sockets.
 *
 *   npm run build
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres REDIS_URL=redis://127.0.0.1:6379 \
 *     npx tsx bench/chat-load.ts [--sockets 2000] [--messages 2000] [--rate 100] [--on-b 200]
 *
 * It creates and drops its own database. The nodes use the default Socket.IO channel on that
 * Redis, so do not point it at a Redis that a running deployment uses.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import postgres from "postgres";
import { io, type Socket } from "socket.io-client";

import type { ChatMessage, ClientToServerEvents, ServerToClientEvents } from "../app/realtime/events";
import { env } from "../app/utils/env.server";
import { hashToken, randomToken } from "../app/utils/tokens.server";
import { startServer, type ServerProcess } from "../tests/support/server-process";

type Client = Socket<ServerToClientEvents, ClientToServerEvents>;

const { values: args } = parseArgs({
  options: {
    sockets: { type: "string", default: "2000" },
    messages: { type: "string", default: "2000" },
    rate: { type: "string", default: "100" },
    /** How many customers connect to node B (the rest to node A); half by default. `--on-b 200` holds 10,000 of 10,200 on one node. */
    "on-b": { type: "string" },
  },
});
const SOCKETS = Number(args.sockets);
const MESSAGES = Number(args.messages);
const RATE = Number(args.rate);
const ON_B = args["on-b"] === undefined ? null : Number(args["on-b"]);
/** The node a customer connects to: alternating, or with `--on-b` the first ON_B on node B. */
const nodeOf = (i: number): "A" | "B" => (ON_B === null ? (i % 2 === 0 ? "A" : "B") : i < ON_B ? "B" : "A");
/** One message in REPLY_EVERY is a staff reply; the others customer messages. */
const REPLY_EVERY = 5;
const STAFF_ON_A = Math.max(1, Math.ceil(RATE / REPLY_EVERY / 1.5)); // each socket may send 20 per 10 s

if (!fs.existsSync("build/server.js")) throw new Error("build/server.js is missing: run `npm run build` first.");
if (!env.databaseUrl || !env.redisUrl) throw new Error("Set DATABASE_URL (PostgreSQL) and REDIS_URL (Redis) for the bench.");

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const rssMiB = (pid: number) => {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
};
/** CPU time a process has used, in ms (user + system; /proc counts in ticks of 10 ms). */
const cpuMs = (pid: number) => {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
};
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function main() {
  const dbName = `brandlift_bench_${crypto.randomBytes(4).toString("hex")}`;
  const admin = postgres(env.databaseUrl!, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${dbName}`);
  const dbUrl = new URL(env.databaseUrl!);
  dbUrl.pathname = `/${dbName}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "brandlift-bench-"));
  const nodes: ServerProcess[] = [];
  const clients: Client[] = [];
  const sql = postgres(dbUrl.toString(), { max: 4, onnotice: () => {} });
  try {
    const start = (name: string) =>
      startServer({ DATABASE_URL: dbUrl.toString(), REDIS_URL: env.redisUrl!, DATA_DIR: path.join(dataDir, name), LOG_LEVEL: "error" }, { timeoutMs: 60_000 });
    nodes.push(await start("a"));
    nodes.push(await start("b"));
    const [a, b] = nodes as [ServerProcess, ServerProcess];
    console.log(`nodes: A ${a.url}, B ${b.url}; database ${dbName}`);

    // Accounts with bearer tokens, straight into the database.
    const accounts = Array.from({ length: SOCKETS }, (_, i) => ({ id: crypto.randomUUID(), token: randomToken(), i }));
    // Staff: one measuring socket on B, and enough on A to reply within the per-socket rate limit.
    const staff = Array.from({ length: STAFF_ON_A + 1 }, () => ({ id: crypto.randomUUID(), token: randomToken() }));
    const expires = new Date(Date.now() + 3600_000);
    const users = [
      ...accounts.map((c) => ({ id: c.id, email: `bench-${c.id}@bench.test`, name: `Customer ${c.i}`, role: "user" })),
      ...staff.map((s, i) => ({ id: s.id, email: `bench-staff-${s.id}@bench.test`, name: `Staff ${i}`, role: "team" })),
    ];
    for (let i = 0; i < users.length; i += 1000) await sql`insert into users ${sql(users.slice(i, i + 1000))}`;
    const sessions = [...accounts, ...staff].map((x) => ({ token_hash: hashToken(x.token), kind: "bearer", user_id: x.id, expires_at: expires }));
    for (let i = 0; i < sessions.length; i += 1000) await sql`insert into sessions ${sql(sessions.slice(i, i + 1000))}`;

    const connect = (url: string, token: string) =>
      new Promise<Client>((resolve, reject) => {
        const socket: Client = io(url, { transports: ["websocket"], auth: { token }, forceNew: true, reconnection: false });
        socket.once("connect", () => resolve(socket));
        socket.once("connect_error", reject);
      });

    const staffOnB = await connect(b.url, staff[0]!.token);
    const staffOnA = await Promise.all(staff.slice(1).map((s) => connect(a.url, s.token)));
    clients.push(staffOnB, ...staffOnA);
    await sleep(1000);
    const before = [rssMiB(a.child.pid!), rssMiB(b.child.pid!)];

    // Even customers on node A, odd on node B (or `--on-b`); in batches so the handshake's session lookups queue gently.
    const customers: { account: (typeof accounts)[number]; socket: Client; node: "A" | "B" }[] = [];
    const t0 = Date.now();
    for (let i = 0; i < accounts.length; i += 100) {
      const batch = accounts.slice(i, i + 100);
      const sockets = await Promise.all(batch.map((c) => connect(nodeOf(c.i) === "A" ? a.url : b.url, c.token)));
      sockets.forEach((socket, j) => customers.push({ account: batch[j]!, socket, node: nodeOf(batch[j]!.i) }));
    }
    clients.push(...customers.map((c) => c.socket));
    console.log(`connected ${customers.length} sockets in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    await sleep(2000);
    if (global.gc) global.gc();
    const after = [rssMiB(a.child.pid!), rssMiB(b.child.pid!)];
    const perNode = [customers.filter((c) => c.node === "A").length, customers.filter((c) => c.node === "B").length];

    // Latency: the send time travels in the text; the receiver on the other node stamps arrival.
    const latencies: number[] = [];
    const acks: number[] = [];
    const ackedAt = new Map<number, number>();
    const afterStore: number[] = []; // delivery on the other node minus the sender's "stored" ack
    const acked = (n: number, sentAt: number) => () => {
      ackedAt.set(n, performance.now());
      acks.push(performance.now() - sentAt);
    };
    const customerIds = new Set<string>(accounts.map((c) => c.id));
    const onArrival = (fromCustomer: boolean) => (m: ChatMessage) => {
      const sent = /^bench (\d+\.\d+) #(\d+)/.exec(m.message);
      if (!sent || customerIds.has(m.senderId._id) !== fromCustomer) return;
      const now = performance.now();
      latencies.push(now - Number(sent[1]));
      const ack = ackedAt.get(Number(sent[2]));
      if (ack !== undefined) afterStore.push(Math.max(0, now - ack));
    };
    staffOnB.on("supportMessage", onArrival(true)); // customers on A → staff on B
    for (const c of customers) if (c.node === "B") c.socket.on("supportMessage", onArrival(false)); // staff on A → customers on B

    // Every statement outside a transaction is a transaction of its own: their count per message.
    const transactions = async () => {
      const [row] = await sql<{ n: string }[]>`select xact_commit + xact_rollback as n from pg_stat_database where datname = current_database()`;
      return Number(row!.n);
    };
    const transactionsBefore = await transactions();
    const cpuBefore = [cpuMs(a.child.pid!), cpuMs(b.child.pid!)];

    const onA = customers.filter((c) => c.node === "A");
    const onB = customers.filter((c) => c.node === "B");
    const interval = 1000 / RATE;
    const sendStart = performance.now();
    for (let n = 0; n < MESSAGES; n++) {
      const due = sendStart + n * interval;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      const now = performance.now();
      const text = `bench ${now.toFixed(3)} #${n}`;
      if (n % REPLY_EVERY !== 0) onA[n % onA.length]!.socket.emit("supportMessage", { message: text }, acked(n, now));
      else {
        const k = n / REPLY_EVERY;
        staffOnA[k % staffOnA.length]!.emit("supportMessage", { message: text, userId: onB[k % onB.length]!.account.id }, acked(n, now));
      }
    }
    const deadline = Date.now() + 10_000;
    while (latencies.length < MESSAGES && Date.now() < deadline) await sleep(100);

    const cpuPerMessage = [cpuMs(a.child.pid!) - cpuBefore[0]!, cpuMs(b.child.pid!) - cpuBefore[1]!].map((ms) => +(ms / MESSAGES).toFixed(2));
    await sleep(11_000); // an idle backend publishes its counters within 10 s
    const transactionsPerMessage = ((await transactions()) - transactionsBefore) / MESSAGES;

    const sorted = [...latencies].sort((x, y) => x - y);
    const report = {
      sockets: customers.length + staff.length,
      socketsPerNode: perNode,
      messages: MESSAGES,
      delivered: latencies.length,
      ratePerSecond: RATE,
      latencyMs: {
        p50: +percentile(sorted, 50).toFixed(2),
        p90: +percentile(sorted, 90).toFixed(2),
        p99: +percentile(sorted, 99).toFixed(2),
        max: +sorted.at(-1)!.toFixed(2),
      },
      storedAckMs: (() => {
        const a = [...acks].sort((x, y) => x - y);
        return { p50: +percentile(a, 50).toFixed(2), p99: +percentile(a, 99).toFixed(2) };
      })(),
      deliveryAfterStoreMs: (() => {
        const a = [...afterStore].sort((x, y) => x - y);
        return { p50: +percentile(a, 50).toFixed(2), p99: +percentile(a, 99).toFixed(2) };
      })(),
      databaseTransactionsPerMessage: +transactionsPerMessage.toFixed(2),
      /** CPU each node spent per message while sending (node A stores them all), whatever the machine's load. */
      nodeCpuMsPerMessage: cpuPerMessage,
      rssMiB: { before: before.map((x) => +x.toFixed(1)), after: after.map((x) => +x.toFixed(1)) },
      mibPer1000Sockets: [0, 1].map((i) => +(((after[i]! - before[i]!) / perNode[i]!) * 1000).toFixed(1)),
    };
    console.log(JSON.stringify(report, null, 2));
    console.log(
      `\nsend → delivered on the other node: p50 ${report.latencyMs.p50} ms, p99 ${report.latencyMs.p99} ms (target p99 < 25 ms): ${report.latencyMs.p99 < 25 ? "met" : "NOT met"}; ` +
        `of which storing: p50 ${report.storedAckMs.p50} ms, p99 ${report.storedAckMs.p99} ms; ` +
        `${report.databaseTransactionsPerMessage} PostgreSQL transactions and ${report.nodeCpuMsPerMessage.join(" / ")} ms of node CPU per message; ` +
        `${report.mibPer1000Sockets.join(" / ")} MiB per 1,000 sockets (node A / node B); load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} CPUs`,
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
