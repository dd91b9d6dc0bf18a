import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import autocannon from "autocannon";
import postgres from "postgres";

import { bareServer, benchServer, rawGet, signIn, writeResult } from "./support";

/**
 * JSON reads at 20 concurrent connections, request logging as shipped (LOG_LEVEL=info). Targets:
 * GET /api/services at ≥ 0.25 of a bare node:http server sending the same bytes and headers, with
 * p99 under 20 ms; a signed-in read p99 under 30 ms, and my-purchases at 2,500 req/s or more in one process.
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
  execFileSync("npx", ["tsx", "tests/e2e/seed.ts"], {
    env: { ...process.env, NODE_ENV: "production", DATABASE_URL: databaseUrl, DATA_DIR: "/tmp/brandlift-bench-seed" },
    stdio: "inherit",
  });
  dropDatabase = async () => {
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  };
}

const server = await benchServer({ LOG_LEVEL: process.env.LOG_LEVEL ?? "info", ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) });
try {
  const customer = (await signIn(server.url, "customer@brandlift.test")).token;
  const team = (await signIn(server.url, "team@brandlift.test")).token;
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
  // The yardstick: a bare node:http server answering the very bytes and headers of GET /api/services.
  const sample = await rawGet(`${server.url}/api/services`, { "accept-encoding": "br, gzip" });
  const bare = await bareServer(sample);
  let ratio = 0;
  try {
    const run = (url: string) => autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers: { "accept-encoding": "br, gzip" } });
    await run(`${bare.url}/`);
    const bareResult = await run(`${bare.url}/`);
    const ours = await run(`${server.url}/api/services`);
    ratio = Number((ours.requests.average / bareResult.requests.average).toFixed(2));
    rows.push({
      route: "bare node:http, same bytes as /api/services",
      rps: Math.round(bareResult.requests.average),
      p50ms: bareResult.latency.p50,
      p99ms: bareResult.latency.p99,
      non2xx: bareResult.non2xx,
    });
    rows.push({
      route: `GET /api/services (br), ${ratio} × bare`,
      rps: Math.round(ours.requests.average),
      p50ms: ours.latency.p50,
      p99ms: ours.latency.p99,
      non2xx: ours.non2xx,
    });
  } finally {
    bare.close();
  }
  console.table(rows);
  const services = rows.filter((r) => r.route.startsWith("GET /api/services") && !r.route.includes("my-purchases"));
  const signedIn = rows.filter((r) => r.route.includes("my-purchases") || r.route.includes("my-reports") || r.route.includes("(team)"));
  const worstPublic = Math.max(...services.map((r) => r.p99ms));
  const worstSignedIn = Math.max(...signedIn.map((r) => r.p99ms));
  console.log(ratio >= 0.25 ? `PASS: /api/services ${ratio} × bare ≥ 0.25` : `FAIL: /api/services ${ratio} × bare < 0.25`);
  console.log(worstPublic < 20 ? `PASS: /api/services p99 ${worstPublic} ms < 20 ms` : `FAIL: /api/services p99 ${worstPublic} ms ≥ 20 ms`);
  console.log(worstSignedIn < 30 ? `PASS: signed-in p99 ${worstSignedIn} ms < 30 ms` : `FAIL: signed-in p99 ${worstSignedIn} ms ≥ 30 ms`);
  const purchasesRps = rows.find((r) => r.route.includes("my-purchases"))?.rps ?? 0;
  console.log(
    purchasesRps >= 2500
      ? `PASS: my-purchases ${purchasesRps} req/s ≥ 2,500 in one process`
      : `FAIL: my-purchases ${purchasesRps} req/s < 2,500 in one process`,
  );
  writeResult(`api-latency-${databaseUrl ? "postgres" : "pglite"}`, { connections: CONNECTIONS, seconds: DURATION, ratio, rows });
} finally {
  await server.close();
  await dropDatabase();
}
