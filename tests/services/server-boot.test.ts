import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, expect, test } from "vitest";

import { ensureBuild, startServer } from "../support/server-process";

const url = process.env.DATABASE_URL!;
const redisUrl = process.env.REDIS_URL!;
const name = `brandlift_boot_${crypto.randomBytes(4).toString("hex")}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "brandlift-boot-services-"));
const admin = postgres(url, { max: 1, onnotice: () => {} });
const databaseUrl = Object.assign(new URL(url), { pathname: `/${name}` }).toString();

beforeAll(async () => {
  ensureBuild();
  await admin.unsafe(`create database ${name}`);
}, 180_000);

afterAll(async () => {
  await admin.unsafe(`drop database if exists ${name} with (force)`);
  await admin.end();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test("boots on PostgreSQL and Redis, migrates, seeds no demo accounts, and stops on SIGTERM", async () => {
  // Two nodes booting at once: the advisory lock lets one migrate while the other waits.
  const [a, b] = await Promise.all([
    startServer({ DATA_DIR: path.join(dataDir, "a"), DATABASE_URL: databaseUrl, REDIS_URL: redisUrl }),
    startServer({ DATA_DIR: path.join(dataDir, "b"), DATABASE_URL: databaseUrl, REDIS_URL: redisUrl }),
  ]);
  try {
    for (const node of [a, b]) {
      expect((await fetch(`${node.url}/healthz`)).status).toBe(200);
      expect((await fetch(`${node.url}/`)).status).toBe(200);
    }
    const db = postgres(databaseUrl, { max: 1 });
    const [{ services }] = await db`select count(*)::int as services from services`;
    const [{ users }] = await db`select count(*)::int as users from users`;
    await db.end();
    expect(services).toBeGreaterThanOrEqual(9);
    expect(users).toBe(0);
    expect(a.output()).not.toContain("Demo sign-ins");
  } finally {
    expect(await a.stop("SIGTERM")).toBe(0);
    expect(await b.stop("SIGTERM")).toBe(0);
  }
}, 90_000);
