import crypto from "node:crypto";
import os from "node:os";
import path from "node:path";
import { configDefaults, defineConfig } from "vitest/config";

import { alias } from "./scripts/aliases";
import CostFirstSequencer from "./tests/setup/sequencer";

const shared = {
  globalSetup: ["tests/setup/global.ts"],
  setupFiles: ["tests/setup/per-file.ts"],
  testTimeout: 20_000,
  hookTimeout: 60_000,
};
const dataTests = ["app/**/*.test.{ts,tsx}", "db/**/*.test.ts", "tests/integration/**/*.test.ts"];
/** Files that never reach the database: no database of their own to load (project `pure`). */
const pureTests = [
  "app/domain/**/*.test.ts",
  "app/components/**/*.test.{ts,tsx}",
  "app/utils/env.server.test.ts",
  "app/utils/sql.server.test.ts",
  "server/**/*.test.ts",
  "app/models/report-upload.server.test.ts",
  "app/web/body-limit.server.test.ts",
  "app/web/json-answer.server.test.ts",
  "db/postgres-queue.test.ts",
  "db/writes.test.ts",
  "tests/lint/**/*.test.ts",
];
/*
 * Files that set the environment before importing the app, so they cannot share the workers of
 * `unit`: those that talk to the fake Stripe or to the fake S3 share workers of their own (project
 * `unit-fakes`: the app of a worker points at one fake Stripe server and one s3rver, both the
 * worker's), and the rest run each in a process of its own (`unit-env`). Decisions 253 and 256.
 */
const fakesTests = ["tests/integration/api-exact.test.ts", "tests/integration/*.stripe.test.ts", "tests/integration/*-s3.test.ts"];
const envTests = [
  "tests/integration/auth-smtp.test.ts",
  "tests/integration/email-outage.test.ts",
  "tests/integration/backup.test.ts",
  "tests/integration/inbound-email.test.ts",
];
/** Suites that build the production bundle or run a separate process: `npm run test:build` (CI runs it). */
const buildTests = [
  "tests/integration/server-boot.test.ts",
  "tests/integration/user-create.test.ts",
  "tests/integration/migrations.test.ts",
  "tests/integration/forgery-server.test.ts",
  "tests/integration/observability.test.ts",
];
const onServices = {
  NODE_ENV: "test" as const,
  DATABASE_URL: process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test",
  REDIS_URL: process.env.REDIS_URL ?? "redis://127.0.0.1:6379",
  VITEST_REDIS_PER_WORKER: "1",
};
const embedded = { NODE_ENV: "test" as const, DATABASE_URL: "", REDIS_URL: "", SMTP_URL: "", STRIPE_SECRET_KEY: "", S3_BUCKET: "" };
/** `npm test`'s password hashes at argon2's smallest cost (app/utils/password.server.ts, decision 312). */
const cheapHashes = { PASSWORD_HASH_COST: "test" };
/**
 * Where Vitest keeps each file's transform between runs: a folder per checkout in the temporary
 * folder. Checkouts side by side often share one node_modules (Vitest's default place), and Vitest
 * empties its cache when it finds it made for another lock file, under a run that is reading it.
 */
const transformCache = path.join(
  os.tmpdir(),
  `brandlift-vitest-transforms-${crypto
    .createHash("sha256")
    .update(import.meta.dirname)
    .digest("hex")
    .slice(0, 12)}`,
);

export default defineConfig({
  resolve: { alias },
  test: {
    // The longest files first, whatever their size on disk or their project (decision 312).
    sequence: { sequencer: CostFirstSequencer },
    // Each file's transform is kept, keyed by its content and this config: a run transforms only what
    // changed since the last one (decision 319).
    experimental: { fsModuleCache: true, fsModuleCachePath: transformCache },
    projects: [
      {
        resolve: { alias },
        test: {
          ...shared,
          name: "unit",
          include: dataTests,
          // Test files wait on PGlite and sockets as much as on the CPU: more files than cores at once.
          maxWorkers: 3,
          // A worker runs many files: the app is imported and PGlite started once per worker, and each
          // file starts from the migrated database (tests/setup/per-file.ts). Decision 161.
          isolate: false,
          exclude: [...configDefaults.exclude, ...buildTests, ...pureTests, ...envTests, ...fakesTests],
          env: { ...embedded, ...cheapHashes, VITEST_SHARED_WORKER: "1" },
        },
      },
      {
        resolve: { alias },
        test: {
          ...shared,
          name: "unit-env",
          include: envTests,
          maxWorkers: 3,
          env: { ...embedded, ...cheapHashes },
        },
      },
      {
        resolve: { alias },
        test: {
          ...shared,
          setupFiles: ["tests/setup/shared-stripe.ts", "tests/setup/shared-s3.ts", ...shared.setupFiles],
          name: "unit-fakes",
          include: fakesTests,
          // Projects of one run share one pool and its width; a worker is kept for the next file of its project.
          maxWorkers: 3,
          isolate: false,
          env: {
            ...embedded,
            ...cheapHashes,
            VITEST_SHARED_WORKER: "1",
            VITEST_SHARED_STRIPE: "1",
            VITEST_SHARED_S3: "1",
          },
        },
      },
      {
        resolve: { alias },
        test: {
          testTimeout: shared.testTimeout,
          setupFiles: ["tests/setup/pure.ts"],
          name: "pure",
          include: pureTests,
          maxWorkers: 3,
          // One process runs many files: none of them holds state that outlives it (decision 256).
          isolate: false,
          env: embedded,
        },
      },
      {
        resolve: { alias },
        test: {
          ...shared,
          name: "build",
          include: buildTests,
          env: embedded,
        },
      },
      // The same data tests on PostgreSQL and Redis, in the same three shapes as `unit`, `unit-env` and
      // `unit-fakes`: each worker copies the migrated template database, and takes a Redis database of
      // its own (tests/setup/per-file.ts), so files run side by side as they do embedded.
      {
        resolve: { alias },
        test: {
          ...shared,
          name: "services-data",
          include: dataTests,
          maxWorkers: 3,
          isolate: false,
          // The embedded database's own query path is tested where the run's template is PGlite's.
          exclude: [...configDefaults.exclude, ...buildTests, ...pureTests, ...envTests, ...fakesTests, "db/pglite-prepared.test.ts"],
          env: { ...onServices, VITEST_SHARED_WORKER: "1" },
        },
      },
      {
        resolve: { alias },
        test: {
          ...shared,
          name: "services-env",
          include: envTests,
          maxWorkers: 3,
          env: onServices,
        },
      },
      {
        resolve: { alias },
        test: {
          ...shared,
          setupFiles: ["tests/setup/shared-stripe.ts", "tests/setup/shared-s3.ts", ...shared.setupFiles],
          name: "services-fakes",
          include: fakesTests,
          maxWorkers: 3,
          isolate: false,
          env: { ...onServices, VITEST_SHARED_WORKER: "1", VITEST_SHARED_STRIPE: "1", VITEST_SHARED_S3: "1" },
        },
      },
      // Suites of real processes (nodes, nginx, private Redis and PostgreSQL for faults) and the
      // build-dependent ones on PostgreSQL: one file at a time, after the data tests (package.json).
      {
        resolve: { alias },
        test: {
          ...shared,
          name: "services",
          include: [...buildTests, "tests/services/**/*.test.ts"],
          fileParallelism: false,
          env: {
            NODE_ENV: "test",
            DATABASE_URL: process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test",
            REDIS_URL: process.env.REDIS_URL ?? "redis://127.0.0.1:6379",
          },
        },
      },
    ],
  },
});
