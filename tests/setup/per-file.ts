import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Redis } from "ioredis";
import { afterAll, inject } from "vitest";
import "./console-errors";
import { createTestDatabase } from "./database";

/*
 * Runs before each test file's imports (every file runs in a fresh process): gives the file its own
 * DATA_DIR and its own migrated database, handed to app/utils/db.server.ts through its test hook
 * (the TEST_DATABASE symbol). console.error fails a test.
 */

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "brandlift-test-"));
process.env.DATA_DIR = dataDir;

const database = await createTestDatabase(inject("databaseTemplate"));
// The symbol of TEST_DATABASE in app/utils/db.server.ts (not imported here: the app must not load before this).
(globalThis as Record<symbol, unknown>)[Symbol.for("brandlift.test-database")] = database;

// Rate-limit counters live in Redis for a minute or an hour: a file must not inherit the last file's.
if (process.env.REDIS_URL) {
  const redis = new Redis(process.env.REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  for (let cursor = "0"; ; ) {
    const [next, keys] = await redis.scan(cursor, "MATCH", "rl:*", "COUNT", 1000);
    if (keys.length > 0) await redis.del(...keys);
    cursor = next;
    if (cursor === "0") break;
  }
  await redis.quit();
}

afterAll(async () => {
  await database.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});
