import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import autocannon from "autocannon";
import postgres from "postgres";

import { bareServer, benchServer, rawGet, signIn, writeResult } from "./support";

/**
 * The pages customers and staff live in, each against a bare node:http server (its own process)
 * replaying the exact bytes and headers of that page, 20 connections, one worker, on a fresh
 * PostgreSQL database seeded like the e2e suite (the demo accounts) plus an inbox in use
 * (bench/seed-inbox.ts: 40 customers' threads, so staff's inbox lists a full page). Target: at least
 * 0.25 of the bare server's requests/s and p99 under 50 ms; the HTML at most 40 KB. The same page
 * asked again is answered from memory while no data changes (decision 326); `renderRps` and
 * `renderP99ms` are a second server's that renders every request (PAGE_CACHE_SECONDS=0).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/signed-in-pages.ts
 *
 * BENCH_SECONDS (default 5) sets each run's length; BENCH_CPU_PROF=<dir> writes a V8 CPU profile of
 * the server (`node --cpu-prof`) while it serves the pages, to open in Chrome's DevTools.
 */
const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 20;
const baseUrl = process.env.DATABASE_URL;
if (!baseUrl?.startsWith("postgres")) throw new Error("Set DATABASE_URL (PostgreSQL): the bench creates its own database there.");

const name = `brandlift_bench_pages_${crypto.randomBytes(4).toString("hex")}`;
const admin = postgres(baseUrl, { max: 1, onnotice: () => {} });
await admin.unsafe(`create database ${name}`);
const databaseUrl = Object.assign(new URL(baseUrl), { pathname: `/${name}` }).toString();
for (const seed of ["tests/e2e/seed.ts", "bench/seed-inbox.ts"]) {
  execFileSync("npx", ["tsx", seed], {
    env: { ...process.env, NODE_ENV: "production", DATABASE_URL: databaseUrl, DATA_DIR: "/tmp/brandlift-bench-seed" },
    stdio: "inherit",
  });
}

const profileDir = process.env.BENCH_CPU_PROF;
const server = await benchServer({ DATABASE_URL: databaseUrl, WEB_CONCURRENCY: "1" }, profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : []);
// The same pages rendered for every request (no page answered again from memory, decision 326): what a render costs.
const rendering = await benchServer({ DATABASE_URL: databaseUrl, WEB_CONCURRENCY: "1", PAGE_CACHE_SECONDS: "0" });
const rows: Array<Record<string, string | number>> = [];
try {
  const customer = await signIn(server.url, "customer@brandlift.test");
  const team = await signIn(server.url, "team@brandlift.test");
  const pages = [
    { who: "customer", path: "/dashboard/services", token: customer.token },
    { who: "customer", path: "/dashboard/calendar", token: customer.token },
    { who: "customer", path: "/dashboard/messages", token: customer.token },
    { who: "staff", path: "/dashboard/inbox", token: team.token },
    { who: "staff", path: "/dashboard/orders", token: team.token },
    // Lists every customer twice (its filter and the draft form): with the inbox's 40 it is the page customers grow (decision 325).
    { who: "staff", path: "/dashboard/calendar", token: team.token },
    { who: "staff", path: `/dashboard/users/${customer.user._id}`, token: team.token },
  ];
  for (const page of pages) {
    const headers = { "accept-encoding": "br, gzip", authorization: `Bearer ${page.token}` };
    const url = `${server.url}${page.path}`;
    const plain = await rawGet(url, { authorization: headers.authorization });
    const sample = await rawGet(url, headers);
    const bare = await bareServer(sample);
    try {
      const run = (target: string) => autocannon({ url: target, connections: CONNECTIONS, duration: DURATION, headers });
      await autocannon({ url, connections: CONNECTIONS, duration: 1, headers }); // warm-up: JIT, plans, pools
      const bareResult = await run(`${bare.url}/`);
      const ours = await run(url);
      const renderUrl = `${rendering.url}${page.path}`;
      await autocannon({ url: renderUrl, connections: CONNECTIONS, duration: 1, headers });
      const rendered = await run(renderUrl);
      rows.push({
        page: `${page.who} ${page.path.replace(customer.user._id, ":id")}`,
        htmlKB: +(plain.body.length / 1024).toFixed(1),
        wireKB: +(sample.body.length / 1024).toFixed(1),
        encoding: String(sample.headers["content-encoding"] ?? "identity"),
        bareRps: Math.round(bareResult.requests.average),
        rps: Math.round(ours.requests.average),
        ratio: +(ours.requests.average / bareResult.requests.average).toFixed(3),
        p50ms: ours.latency.p50,
        p99ms: ours.latency.p99,
        non2xx: ours.non2xx,
        renderRps: Math.round(rendered.requests.average),
        renderP99ms: rendered.latency.p99,
      });
    } finally {
      bare.close();
    }
  }
  console.table(rows);
  const missed = rows.filter((r) => Number(r.ratio) < 0.25 || Number(r.p99ms) >= 50 || Number(r.htmlKB) > 40);
  console.log(missed.length === 0 ? "PASS: every page ≥ 0.25 × bare, p99 < 50 ms, ≤ 40 KB" : `MISSED on ${missed.map((r) => r.page).join(", ")}`);
  writeResult("signed-in-pages", { connections: CONNECTIONS, seconds: DURATION, workers: 1, rows });
} finally {
  await server.close();
  await rendering.close();
  await admin.unsafe(`drop database if exists ${name} with (force)`);
  await admin.end();
}
