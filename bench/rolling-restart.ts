/**
 * Rolling restart under load: nginx (deploy/nginx.conf) in front of two nodes on PostgreSQL and a
 * private Redis. While page loads, JSON reads and chat run through nginx, node A is restarted
 * (SIGTERM, wait for exit, start, wait for /healthz), then node B. Prints failed requests and chat
 * messages lost (acknowledged but not stored, or never delivered to the other side).
 *
 *   npm run build
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/rolling-restart.ts [--connections 10]
 *
 * It creates and drops its own database and starts its own redis-server and nginx.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import postgres from "postgres";

import { env } from "../app/utils/env.server";
import { hashToken, randomToken } from "../app/utils/tokens.server";
import { ThreadClient } from "../tests/support/chat-helpers";
import { startNginx } from "../tests/support/nginx";
import { privateRedis } from "../tests/support/private-services";
import { ensureBuild, freePort, startServer, type ServerProcess } from "../tests/support/server-process";

const { values: args } = parseArgs({ options: { connections: { type: "string", default: "10" } } });
const CONNECTIONS = Number(args.connections);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

if (!env.databaseUrl) throw new Error("Set DATABASE_URL (PostgreSQL) for the bench.");
ensureBuild();

const dbName = `brandlift_rolling_${crypto.randomBytes(4).toString("hex")}`;
const admin = postgres(env.databaseUrl, { max: 1, onnotice: () => {} });
await admin.unsafe(`create database ${dbName}`);
const dbUrl = new URL(env.databaseUrl);
dbUrl.pathname = `/${dbName}`;
const sql = postgres(dbUrl.toString(), { max: 2, onnotice: () => {} });
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "brandlift-rolling-"));
const redis = await privateRedis();
const ports = [await freePort(), await freePort()];
const proxyPort = await freePort();
const origin = `http://127.0.0.1:${proxyPort}`;
const settings = (i: number) => ({
  DATABASE_URL: dbUrl.toString(),
  REDIS_URL: redis.url,
  APP_URL: origin,
  SESSION_SECRET: "rolling-restart-bench-secret-0123456789",
  PORT: String(ports[i]),
  DATA_DIR: path.join(dataDir, `node-${i}`),
});
const nodes: ServerProcess[] = [await startServer(settings(0))];
nodes.push(await startServer(settings(1)));
const nginx = await startNginx(ports, proxyPort);

async function account(role: "user" | "team", name: string) {
  const [user] =
    await sql`insert into users (email, name, role) values (${`rolling-${crypto.randomBytes(4).toString("hex")}@bench.test`}, ${name}, ${role}) returning id`;
  const token = randomToken();
  await sql`insert into sessions (token_hash, kind, user_id, expires_at) values (${hashToken(token)}, 'bearer', ${user!.id}, ${new Date(Date.now() + 3600_000)})`;
  return { id: user!.id as string, token };
}

const customer = await account("user", "Rolling Customer");
const staff = await account("team", "Rolling Staff");

let running = true;
const counts = { ok: 0, failed: 0 };
const failures = new Map<string, number>();
const targets: Array<{ path: string; headers: Record<string, string> }> = [
  { path: "/", headers: {} },
  { path: "/api/services", headers: {} },
  { path: "/api/users/count", headers: { Authorization: `Bearer ${customer.token}` } },
];
async function loop(i: number) {
  while (running) {
    const target = targets[i % targets.length]!;
    i++;
    try {
      const response = await fetch(`${origin}${target.path}`, { headers: target.headers });
      await response.arrayBuffer();
      if (response.ok) counts.ok++;
      else {
        counts.failed++;
        failures.set(`${target.path} ${response.status}`, (failures.get(`${target.path} ${response.status}`) ?? 0) + 1);
      }
    } catch (error) {
      counts.failed++;
      const key = `${target.path} ${(error as Error).cause ?? (error as Error).message}`;
      failures.set(key, (failures.get(key) ?? 0) + 1);
    }
  }
}

// Chat: the customer writes every 100 ms (under the 20 / 10 s limit), staff answer every 5th.
const atCustomer = new ThreadClient(origin, customer.token, customer.id);
const atStaff = new ThreadClient(origin, staff.token, customer.id);
await Promise.all([atCustomer.connected(), atStaff.connected()]);
const acknowledged: string[] = [];
let unacknowledged = 0;
async function chat() {
  for (let n = 0; running; n++) {
    const text = `message ${n}`;
    const sender = n % 5 === 4 ? atStaff : atCustomer;
    const result = await Promise.race([sender.send(text, n % 5 === 4 ? customer.id : undefined).catch(() => null), sleep(5_000).then(() => null)]);
    if (result?.ok) acknowledged.push(text);
    else unacknowledged++;
    await sleep(100);
  }
}

const load = [...Array.from({ length: CONNECTIONS }, (_, i) => loop(i)), chat()];
const started = Date.now();
await sleep(3_000);
const restarts: string[] = [];
for (const i of [0, 1]) {
  const t0 = Date.now();
  const code = await nodes[i]!.stop("SIGTERM");
  const stopped = Date.now();
  nodes[i] = await startServer(settings(i));
  restarts.push(`node ${"AB"[i]}: exit ${code} after ${stopped - t0} ms, serving again ${Date.now() - stopped} ms later`);
  await sleep(3_000);
}
running = false;
await Promise.all(load);
const seconds = (Date.now() - started) / 1000;

// Everything acknowledged is stored, and after catching up both sides hold all of it.
await Promise.all([atCustomer.catchUp(), atStaff.catchUp()]);
const stored = new Set((await sql`select message from chat_messages where room_id = ${`support-${customer.id}`}`).map((r) => r.message as string));
const notStored = acknowledged.filter((t) => !stored.has(t)).length;
const missingAtCustomer = acknowledged.filter((t) => !atCustomer.texts().includes(t)).length;
const missingAtStaff = acknowledged.filter((t) => !atStaff.texts().includes(t)).length;

console.log(`\nRolling restart through nginx, ${CONNECTIONS} HTTP connections + one chat, ${seconds.toFixed(1)} s`);
for (const line of restarts) console.log(`  ${line}`);
console.log(`  HTTP requests: ${counts.ok + counts.failed}, failed: ${counts.failed}`);
for (const [key, n] of failures) console.log(`    ${n} × ${key}`);
console.log(`  chat messages: ${acknowledged.length} acknowledged, ${unacknowledged} refused or timed out (the sender retries those)`);
console.log(`  chat messages lost: ${notStored} not stored, ${missingAtCustomer} missing at the customer, ${missingAtStaff} missing at staff`);

atCustomer.close();
atStaff.close();
await nginx.stop();
await Promise.all(nodes.map((n) => n.stop("SIGKILL")));
await redis.kill();
await sql.end();
await admin.unsafe(`drop database if exists ${dbName} with (force)`);
await admin.end();
fs.rmSync(dataDir, { recursive: true, force: true });
process.exit(0);
