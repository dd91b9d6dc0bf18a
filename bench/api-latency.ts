import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import autocannon from "autocannon";
import postgres from "postgres";
import { benchServer, writeResult } from "./support";

/**
 * JSON reads at 20 concurrent connections. Target: p99 under 20 ms.
 * Embedded PGlite by default; BENCH_DATABASE_URL=postgres://… runs it on a fresh PostgreSQL database.
 */
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 20;
const baseUrl = process.env.BENCH_DATABASE_URL;

let databaseUrl: string | undefined;
let dropDatabase = async () => {};
if (baseUrl) {
  const name = `brandlift_bench_${crypto.randomBytes(4).toString("hex")}`;
  const admin = postgres(baseUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  databaseUrl = Object.assign(new URL(baseUrl), { pathname: `/${name}` }).toString();
  // The e2e seed: catalogue, demo accounts with purchases, a report and chat messages.
  execFileSync("npx", ["tsx", "tests/e2e/seed.ts"], { env: { ...process.env, NODE_ENV: "production", DATABASE_URL: databaseUrl, DATA_DIR: "/tmp/brandlift-bench-seed" }, stdio: "inherit" });
  dropDatabase = async () => {
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  };
}

const server = await benchServer(databaseUrl ? { DATABASE_URL: databaseUrl } : {});
try {
  const login = async (email: string) => {
    const response = await fetch(`${server.url}/api/auth/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email, password: "brandlift-demo" }),
    });
    const body = (await response.json()) as { data?: { token?: string } };
    if (!body.data?.token) throw new Error(`could not sign in as ${email}: ${JSON.stringify(body)}`);
    return body.data.token;
  };
  const customer = await login("customer@brandlift.test");
  const team = await login("team@brandlift.test");
  const targets = [
    { name: "GET /api/services", path: "/api/services", token: undefined },
    { name: "GET /api/services/my-purchases", path: "/api/services/my-purchases", token: customer },
    { name: "GET /api/reports/my-reports", path: "/api/reports/my-reports", token: customer },
    { name: "GET /api/users/count (team)", path: "/api/users/count", token: team },
    { name: "GET /api/users (team)", path: "/api/users", token: team },
  ];
  const rows = [];
  for (const target of targets) {
    const headers: Record<string, string> = target.token ? { Authorization: `Bearer ${target.token}` } : {};
    await autocannon({ url: `${server.url}${target.path}`, connections: CONNECTIONS, duration: 2, headers });
    const r = await autocannon({ url: `${server.url}${target.path}`, connections: CONNECTIONS, duration: DURATION, headers });
    rows.push({ route: target.name, rps: Math.round(r.requests.average), p50ms: r.latency.p50, p99ms: r.latency.p99, non2xx: r.non2xx });
  }
  console.table(rows);
  const worst = Math.max(...rows.map((r) => r.p99ms));
  console.log(worst < 20 ? `PASS: worst p99 ${worst} ms < 20 ms` : `FAIL: worst p99 ${worst} ms ≥ 20 ms`);
  writeResult(`api-latency-${databaseUrl ? "postgres" : "pglite"}`, { connections: CONNECTIONS, seconds: DURATION, rows });
} finally {
  await server.close();
  await dropDatabase();
}
