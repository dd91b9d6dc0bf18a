import path from "node:path";
import { remember } from "@epic-web/remember";

import { connectDatabase, type Database } from "#db/client";

import { env } from "./env.server";

export type { Database, Db, Tx } from "#db/client";
export { JOB_SCHEMA } from "#db/job-queue";
export * as schema from "#db/schema";
/** The catalogue's seed (db/seed.ts); the app reaches it through app/models/catalogue.server.ts. */
export { seedCatalogue } from "#db/seed";

/**
 * The test hook: tests/setup/per-file.ts puts each test file's own database (a cloned PGlite or a
 * fresh PostgreSQL database) under this global symbol before the app is imported.
 */
export const TEST_DATABASE = Symbol.for("brandlift.test-database");

/** The one database handle of this process: the test file's, else one connection kept across dev reloads. */
export const database: Database =
  (globalThis as Record<symbol, Database | undefined>)[TEST_DATABASE] ??
  remember("database", () => connectDatabase({ url: env.databaseUrl, dataDir: path.join(env.dataDir, "pglite") }));

export const db = database.db;

/** Codes of a database that is down or restarting: postgres.js connection errors, SQLSTATE 08xxx and 57Pxx. */
const UNAVAILABLE = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
]);

/**
 * Whether an error means "the database is not answering" rather than "this query is wrong":
 * the first costs the request a 503, never the node. Drizzle wraps the driver's
 * error as `cause`, so the chain is walked.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current = error;
  for (let depth = 0; current && typeof current === "object" && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && (UNAVAILABLE.has(code) || /^(08|57P)/.test(code))) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
