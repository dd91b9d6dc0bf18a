import path from "node:path";
import { defineConfig } from "vitest/config";

const alias = { "~": path.resolve(import.meta.dirname, "app"), "#db": path.resolve(import.meta.dirname, "db") };
const shared = {
  globalSetup: ["tests/setup/global.ts"],
  setupFiles: ["tests/setup/per-file.ts"],
  testTimeout: 20_000,
  hookTimeout: 60_000,
};
const dataTests = ["app/**/*.test.{ts,tsx}", "db/**/*.test.ts", "tests/integration/**/*.test.ts"];

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          ...shared,
          name: "unit",
          include: dataTests,
          env: { NODE_ENV: "test", DATABASE_URL: "", REDIS_URL: "", SMTP_URL: "", STRIPE_SECRET_KEY: "", S3_BUCKET: "" },
        },
      },
      {
        resolve: { alias },
        test: {
          ...shared,
          name: "services",
          include: [...dataTests, "tests/services/**/*.test.ts"],
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
