import { defineConfig } from "@playwright/test";

import { SERVER_NODE_FLAGS } from "./scripts/server-flags.mjs";
import { E2E_DATA_DIR, E2E_PORT } from "./tests/e2e/fixtures";

/** e2e against the production build, in Debian's Chromium (never a downloaded browser). */
export default defineConfig({
  testDir: "tests/e2e",
  outputDir: "test-results",
  fullyParallel: false,
  // Two at a time: the screens suite (read-only pictures and axe) beside the rest, which runs one test at a time.
  workers: 2,
  retries: 0,
  // A story is a few seconds on a quiet machine; on a loaded 2-core one (two browsers, the server and
  // the seed's database side by side) the same steps have been seen to take 30 s and more. The
  // limits bound a hang, they are not the measure of speed (bench/ is).
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: "list",
  use: {
    baseURL: `http://127.0.0.1:${E2E_PORT}`,
    // CI keeps no artifact but the log (each failure's error and call log are printed): recording
    // a trace there (a screencast and a DOM snapshot per action) costs a tenth of the suite's CPU for nothing.
    trace: process.env.CI ? "off" : "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
  projects: [
    { name: "setup", testMatch: /auth\.setup\.ts/ },
    // The stories share their seeded accounts: one test at a time, and the no-JavaScript runs of
    // the same stories after them (never beside them).
    { name: "js", use: { javaScriptEnabled: true }, testIgnore: /screens\.spec\.ts/, workers: 1, dependencies: ["setup"] },
    { name: "no-js", use: { javaScriptEnabled: false }, grep: /@no-js/, testIgnore: /screens\.spec\.ts/, workers: 1, dependencies: ["js"] },
    // Every screen at 390 and 1280 px only looks (no form is sent): it runs beside the stories.
    { name: "screens", use: { javaScriptEnabled: true }, testMatch: /screens\.spec\.ts/, workers: 1, dependencies: ["setup"] },
  ],
  webServer: {
    // A fresh embedded database with the demo and e2e accounts, then the production server on it.
    command: `rm -rf ${E2E_DATA_DIR} && npx tsx tests/e2e/seed.ts && node ${SERVER_NODE_FLAGS.join(" ")} ${process.env.BUILD_DIR ?? "build"}/server.js`,
    url: `http://127.0.0.1:${E2E_PORT}/healthz`,
    reuseExistingServer: false,
    // The seed and the first start take 10-20 s on a quiet machine, over 50 s on a loaded one.
    timeout: 180_000,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      NODE_ENV: "production",
      PORT: String(E2E_PORT),
      HOST: "127.0.0.1",
      DATA_DIR: E2E_DATA_DIR,
      APP_URL: `http://127.0.0.1:${E2E_PORT}`,
      LOG_LEVEL: "warn",
    },
  },
});
