import { defineConfig } from "@playwright/test";

import base from "./playwright.config";
import { NODES } from "./tests/e2e/nodes/nodes";

/*
 * The delivery story (tests/e2e/delivery.spec.ts) on PostgreSQL + Redis + S3 with two production
 * nodes: the customer on one, staff on the other (tests/e2e/nodes/start-nodes.ts starts them all).
 * The specs and the seed find their data (sign-ins, the e-mail outbox) through E2E_DATA_DIR, and
 * staff's node through E2E_STAFF_URL; the workers inherit both.
 */
process.env.E2E_DATA_DIR = NODES.dataDir;
process.env.E2E_STAFF_URL = `http://127.0.0.1:${NODES.staffPort}`;

export default defineConfig({
  ...base,
  outputDir: "test-results-nodes",
  workers: 1,
  use: { ...base.use, baseURL: `http://127.0.0.1:${NODES.customerPort}` },
  projects: [
    { name: "setup", testMatch: /auth\.setup\.ts/ },
    { name: "js", use: { javaScriptEnabled: true }, testMatch: /delivery\.spec\.ts/, dependencies: ["setup"] },
    { name: "no-js", use: { javaScriptEnabled: false }, testMatch: /delivery\.spec\.ts/, grep: /@no-js/, dependencies: ["js"] },
  ],
  webServer: {
    command: "npx tsx tests/e2e/nodes/start-nodes.ts",
    // The staff node starts second: when it answers, both do.
    url: `http://127.0.0.1:${NODES.staffPort}/healthz`,
    reuseExistingServer: false,
    timeout: 240_000,
    stdout: "ignore",
    stderr: "pipe",
    gracefulShutdown: { signal: "SIGTERM", timeout: 5_000 },
  },
});
