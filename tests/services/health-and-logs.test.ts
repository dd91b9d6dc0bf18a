import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";

import { within } from "../support/faults-helpers";
import { privateRedis, type PrivateRedis } from "../support/private-services";
import { ensureBuild, startServer, type ServerProcess } from "../support/server-process";

/*
 * A production node on a private redis-server that this suite stops with SIGSTOP (connections
 * stay open, nothing answers): /healthz must say so. And its request log at `info` never holds
 * the secret of a link (reset, e-mail confirmation).
 */

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "brandlift-health-"));
let redis: PrivateRedis;
let node: ServerProcess;

beforeAll(async () => {
  ensureBuild();
  redis = await privateRedis();
  node = await startServer({ DATA_DIR: dataDir, REDIS_URL: redis.url, LOG_LEVEL: "info" }, { timeoutMs: 180_000 });
}, 240_000);

afterAll(async () => {
  redis?.resume();
  await node?.stop("SIGKILL");
  await redis?.kill();
  fs.rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

const health = async () => {
  const started = Date.now();
  const response = await fetch(`${node.url}/healthz`);
  return { status: response.status, body: await response.json(), ms: Date.now() - started };
};

test("/healthz reports a stopped Redis as down within a second, and up again once it answers", async () => {
  await within(10_000, "Redis up", async () => (await health()).body.redis === "up");
  redis.pause();
  try {
    const stopped = await health();
    expect(stopped).toMatchObject({ status: 200, body: { status: "degraded", database: "up", redis: "down" } });
    expect(stopped.ms).toBeLessThan(1000);
  } finally {
    redis.resume();
  }
  await within(15_000, "Redis up again", async () => (await health()).body.redis === "up");
}, 60_000);

test("request logs carry no link tokens", async () => {
  const secrets = ["resetSECRET0123456789", "confirmSECRET0123456789", "otherSECRET0123456789"];
  await fetch(`${node.url}/reset-password?token=${secrets[0]}`);
  await fetch(`${node.url}/account/confirm-email?token=${secrets[1]}&next=1`);
  await fetch(`${node.url}/login?redirectTo=%2F&access_token=${secrets[2]}`);
  await within(
    5_000,
    "the request lines are logged",
    () => node.output().includes("/account/confirm-email?token=[redacted]&next=1") && node.output().includes("access_token=[redacted]"),
  );
  expect(node.output()).toContain("/reset-password?token=[redacted]");
  expect(node.output()).toContain("access_token=[redacted]");
  for (const secret of secrets) expect(node.output()).not.toContain(secret);
}, 30_000);
