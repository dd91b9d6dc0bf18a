import { defineConfig } from "@playwright/test";

import { E2E_DATA_DIR, E2E_PORT } from "./tests/e2e/fixtures";

/** e2e against the production build, in Debian's Chromium (never a downloaded browser). */
export default defineConfig({
  testDir: "tests/e2e",
  outputDir: "test-results",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${E2E_PORT}`,
    trace: "retain-on-failure",
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
    { name: "js", use: { javaScriptEnabled: true }, dependencies: ["setup"] },
    { name: "no-js", use: { javaScriptEnabled: false }, grep: /@no-js/, dependencies: ["setup"] },
  ],
  webServer: {
    // A fresh embedded database with the demo and e2e accounts, then the production server on it.
    command: `rm -rf ${E2E_DATA_DIR} && npx tsx tests/e2e/seed.ts && node ${process.env.BUILD_DIR ?? "build"}/server.js`,
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
