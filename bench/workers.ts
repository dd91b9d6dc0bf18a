import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import autocannon from "autocannon";
import postgres from "postgres";

import { benchServer, signIn, writeResult } from "./support";

/**
 * Throughput with 1 and with 2 worker processes (WEB_CONCURRENCY), side by side in one run, on a
 * fresh PostgreSQL database seeded like the e2e suite plus an inbox in use (bench/seed-inbox.ts: 40
 * customers' threads, so staff's inbox lists a full page): the landing page, GET /api/services, a
 * signed-in JSON read and three signed-in pages, 20 connections each, and the gain of the second.
 * The pages are measured twice: as served (a page asked again is answered from memory while no data
 * changed, docs/decisions/326) and rendered every time (PAGE_CACHE_SECONDS=0), where a page's cost is
 * the server's own and a second worker has the most to give.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/workers.ts
 */
const DURATION = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = 20;
const baseUrl = process.env.DATABASE_URL;
if (!baseUrl) throw new Error("Set DATABASE_URL (PostgreSQL): several workers need it.");

const name = `brandlift_bench_${crypto.randomBytes(4).toString("hex")}`;
const admin = postgres(baseUrl, { max: 1, onnotice: () => {} });
await admin.unsafe(`create database ${name}`);
const databaseUrl = Object.assign(new URL(baseUrl), { pathname: `/${name}` }).toString();
for (const seed of ["tests/e2e/seed.ts", "bench/seed-inbox.ts"]) {
  execFileSync("npx", ["tsx", seed], {
    env: { ...process.env, NODE_ENV: "production", DATABASE_URL: databaseUrl, DATA_DIR: "/tmp/brandlift-bench-seed" },
    stdio: "inherit",
  });
}

const rows: Array<Record<string, string | number>> = [];
try {
  for (const [workers, pageCache] of [
    [1, "on"],
    [2, "on"],
    [1, "off"],
    [2, "off"],
  ] as const) {
    const server = await benchServer({
      DATABASE_URL: databaseUrl,
      WEB_CONCURRENCY: String(workers),
      ...(pageCache === "off" ? { PAGE_CACHE_SECONDS: "0" } : {}),
    });
    try {
      const { token } = await signIn(server.url, "customer@brandlift.test");
      const { token: staffToken } = await signIn(server.url, "team@brandlift.test");
      const page = (bearer: string) => ({ Authorization: `Bearer ${bearer}`, "Accept-Encoding": "br" });
      const pages = [
        // Signed-in pages (HTML, brotli): the target is a gain of 1.6× or more with two workers.
        { route: "page: customer /dashboard/services", path: "/dashboard/services", headers: page(token) },
        { route: "page: staff /dashboard/inbox", path: "/dashboard/inbox", headers: page(staffToken) },
        { route: "page: staff /dashboard/orders", path: "/dashboard/orders", headers: page(staffToken) },
      ];
      const targets =
        pageCache === "off"
          ? pages.map((p) => ({ ...p, route: `${p.route} (rendered)` }))
          : [
              { route: "GET /", path: "/", headers: { "Accept-Encoding": "br" } },
              { route: "GET /api/services", path: "/api/services", headers: {} },
              { route: "GET /api/services/my-purchases (signed in)", path: "/api/services/my-purchases", headers: { Authorization: `Bearer ${token}` } },
              ...pages,
            ];
      for (const target of targets) {
        await autocannon({ url: `${server.url}${target.path}`, connections: CONNECTIONS, duration: 2, headers: target.headers });
        const r = await autocannon({ url: `${server.url}${target.path}`, connections: CONNECTIONS, duration: DURATION, headers: target.headers });
        rows.push({ workers, route: target.route, rps: Math.round(r.requests.average), p50ms: r.latency.p50, p99ms: r.latency.p99, non2xx: r.non2xx });
      }
    } finally {
      await server.close();
    }
  }
  console.table(rows);
  const gains = Object.fromEntries(
    [...new Set(rows.map((r) => String(r.route)))].map((route) => {
      const [one, two] = [1, 2].map((w) => Number(rows.find((r) => r.route === route && r.workers === w)?.rps ?? 0));
      return [route, one ? +(two! / one).toFixed(2) : 0];
    }),
  );
  console.log("2 workers / 1 worker:", gains);
  writeResult("workers", { connections: CONNECTIONS, seconds: DURATION, rows, gains });
} finally {
  await admin.unsafe(`drop database if exists ${name} with (force)`);
  await admin.end();
}
