import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Redis } from "ioredis";
import { afterAll, expect, inject } from "vitest";

import type { Database } from "../../db/client";
import { failTestsOnConsoleError } from "./console-errors";
import { createTestDatabase, resetTestDatabase } from "./database";

/*
 * Runs before each test file's imports. Each worker process has one DATA_DIR and one migrated
 * database, handed to app/utils/db.server.ts through its test hook (the TEST_DATABASE symbol). Where
 * a worker runs several files (`isolate: false`), each file starts from what a fresh worker has: the
 * database back to the migrated template, DATA_DIR emptied, and the app's per-process counters (rate
 * limits) reset; its caches are off under test. console.error fails a test.
 */

interface WorkerState {
  dataDir: string;
  /** Null for a file that makes its own databases. */
  database: Database | null;
}
const STATE = Symbol.for("brandlift.test-worker");
const global = globalThis as Record<symbol, unknown>;

/*
 * Test files running side by side on one Redis each get a database of their own (SELECT n, by the
 * worker's pool slot): the rate-limit counters a file clears and counts are then only its own. Socket
 * servers in tests already use channels of their own (`adapterKey`), and pub/sub ignores the number.
 */
if (process.env.VITEST_REDIS_PER_WORKER === "1" && process.env.REDIS_URL) {
  const url = new URL(process.env.REDIS_URL);
  url.pathname = `/${1 + (Number(process.env.VITEST_POOL_ID ?? 0) % 15)}`;
  process.env.REDIS_URL = url.toString();
}

/**
 * Files that make the databases they use (the backup test: a source and a restored target, each
 * its own) and run in a process of their own: none is made for them to leave unused.
 */
const MAKES_ITS_OWN_DATABASES = /\/tests\/integration\/backup\.test\.ts$/;

let state = global[STATE] as WorkerState | undefined;
if (!state) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "brandlift-test-"));
  process.env.DATA_DIR = dataDir;
  let database: Database | null = null;
  if (!MAKES_ITS_OWN_DATABASES.test(expect.getState().testPath ?? "")) {
    database = await createTestDatabase(inject("databaseTemplate"));
    // The symbol of TEST_DATABASE in app/utils/db.server.ts (not imported here: the app must not load before this).
    global[Symbol.for("brandlift.test-database")] = database;
  }
  state = { dataDir, database };
  global[STATE] = state;
  process.once("exit", () => fs.rmSync(dataDir, { recursive: true, force: true }));
} else {
  // The last file's after-answer work lands before the reset, not in this file's database.
  const { settleBackgroundTasks } = await import("../../app/utils/background.server");
  await settleBackgroundTasks();
  if (state.database) await resetTestDatabase(state.database);
  for (const entry of fs.readdirSync(state.dataDir)) fs.rmSync(path.join(state.dataDir, entry), { recursive: true, force: true });
  process.env.DATA_DIR = state.dataDir;
  // The app is loaded by now (an earlier file imported it): these imports are its module instances.
  const { resetRateLimits } = await import("../../app/utils/rate-limit.server");
  resetRateLimits();
}
failTestsOnConsoleError();

// A file sharing its worker must not change the settings the app read at its first import.
const settingsAtStart = JSON.stringify(process.env);

// Rate-limit counters live in Redis for a minute or an hour: a file must not inherit the last file's.
if (process.env.REDIS_URL) {
  const redis = new Redis(process.env.REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  for (let cursor = "0"; ;) {
    const [next, keys] = await redis.scan(cursor, "MATCH", "rl:*", "COUNT", 1000);
    if (keys.length > 0) await redis.del(...keys);
    cursor = next;
    if (cursor === "0") break;
  }
  await redis.quit();
}

afterAll(async () => {
  if (process.env.VITEST_SHARED_WORKER === "1" && JSON.stringify(process.env) !== settingsAtStart) {
    throw new Error(
      "This test file changes process.env: the app read its settings once per worker. List it under envTests in vitest.config.ts (or, for the fake Stripe or S3, with their shared settings in tests/fakes/stripe.ts or tests/support/s3rver.ts).",
    );
  }
  // An isolated file (a process of its own) closes its database; a shared worker keeps it for the next file.
  if (process.env.VITEST_SHARED_WORKER !== "1") {
    // Work the app started after an answer (a session's last use) finishes first: a query still
    // opening its connection when the pool ends fails inside postgres.js, out of any caller's reach.
    const { settleBackgroundTasks } = await import("../../app/utils/background.server");
    await settleBackgroundTasks();
    await state.database?.close();
    delete global[STATE];
    fs.rmSync(state.dataDir, { recursive: true, force: true });
  }
});
