import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";

import { connectPostgres, wrapPglite, type Database } from "../db/client";
import { ensureBuild, startServer } from "../tests/support/server-process";

/** A production server on a scratch DATA_DIR (embedded defaults) for a benchmark. */
export async function benchServer(env: Record<string, string> = {}) {
  ensureBuild();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "brandlift-bench-"));
  const server = await startServer({ DATA_DIR: dataDir, LOG_LEVEL: "error", ...env });
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
