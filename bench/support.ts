import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import postgres from "postgres";

import { connectPostgres, wrapPglite, type Database } from "../db/client";
import { ensureBuild, startServer } from "../tests/support/server-process";

// The benches sign the demo accounts in as the tests do.
export { signIn } from "../tests/support/server-process";

/** A production server on a scratch DATA_DIR (embedded defaults) for a benchmark. */
export async function benchServer(env: Record<string, string> = {}, nodeArgs: string[] = []) {
  ensureBuild();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "brandlift-bench-"));
  const server = await startServer({ DATA_DIR: dataDir, LOG_LEVEL: "error", ...env }, { nodeArgs });
  return {
    ...server,
    async close() {
      await server.stop("SIGTERM");
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function writeResult(name: string, result: unknown) {
  const dir = path.resolve("bench/results");
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, `${name}.json`), JSON.stringify(result, null, 2));
}

/**
 * A migrated scratch database for an in-process bench (`BENCH_DATABASE_URL`, an EMPTY PostgreSQL
 * database, else PGlite in memory), handed to app/utils/db.server.ts through its test hook: import
 * the app's modules (dynamically) only after this.
 */
export async function scratchDatabase(name: string): Promise<Database> {
  process.env.DATA_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), `brandlift-bench-${name}-`));
  process.env.LOG_LEVEL = "silent";
  process.env.S3_BUCKET = "";
  const url = process.env.BENCH_DATABASE_URL;
  const database: Database = url ? connectPostgres(url, { max: 4 }) : wrapPglite(new PGlite());
  await database.migrate();
  (globalThis as Record<symbol, Database>)[Symbol.for("brandlift.test-database")] = database;
  return database;
}

export function rawGet(
  url: string,
  headers: Record<string, string> = { "accept-encoding": "br, gzip" },
): Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on("error", reject);
  });
}

/** A bare server in a child process, answering with exactly these bytes and headers. */
export async function bareServer(sample: { headers: http.IncomingHttpHeaders; body: Buffer }) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "brandlift-bare-"));
  const headers = Object.fromEntries(
    Object.entries(sample.headers).filter(([name]) => !["content-length", "date", "connection", "keep-alive", "transfer-encoding"].includes(name)),
  );
  fs.writeFileSync(path.join(dir, "body"), sample.body);
  fs.writeFileSync(path.join(dir, "headers.json"), JSON.stringify(headers));
  const child = spawn(process.execPath, [path.resolve("bench/bare-server.mjs"), path.join(dir, "body"), path.join(dir, "headers.json")], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise<number>((resolve) =>
    child.stdout.on("data", (d: Buffer) => {
      const m = /PORT (\d+)/.exec(String(d));
      if (m) resolve(Number(m[1]));
    }),
  );
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => {
      child.kill("SIGTERM");
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A PostgreSQL database of this bench's own, `<DATABASE_URL's database>_<name>`, on DATABASE_URL's
 * server: created empty, or with `keep` the one a run left is reused (`reused`). `close()` drops it
 * unless `keep`. Each bench names its own, so one bench's kept data never meets another's.
 */
export async function namedBenchDatabase(name: string, keep: boolean) {
  const base = process.env.DATABASE_URL;
  if (!base?.startsWith("postgres")) throw new Error("Set DATABASE_URL to a PostgreSQL server (the bench creates its own database there).");
  const url = new URL(base);
  const dbName = `${url.pathname.slice(1) || "brandlift"}_${name}`.replace(/[^a-z0-9_]/gi, "_");
  url.pathname = `/${dbName}`;
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  const reused = keep && (await admin`select 1 from pg_database where datname = ${dbName}`).length > 0;
  if (!reused) {
    await admin.unsafe(`drop database if exists ${dbName} with (force)`);
    await admin.unsafe(`create database ${dbName}`);
  }
  return {
    url: url.toString(),
    reused,
    async close() {
      if (!keep) await admin.unsafe(`drop database if exists ${dbName} with (force)`);
      await admin.end();
    },
  };
}

/** The p-th percentile of sorted samples. */
export const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** Times `run` `runs` times after ten warm-up calls (caches and plans): p50, p95 and p99 in ms. */
export async function timeRuns(name: string, runs: number, run: () => Promise<unknown>) {
  for (let i = 0; i < 10; i++) await run();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await run();
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  return { name, p50: +percentile(samples, 50).toFixed(2), p95: +percentile(samples, 95).toFixed(2), p99: +percentile(samples, 99).toFixed(2) };
}
