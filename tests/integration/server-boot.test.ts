import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ensureBuild, runServerExpectingFailure, startServer, type ServerProcess } from "../support/server-process";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "brandlift-boot-"));

beforeAll(() => ensureBuild(), 180_000);
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe("the production server with no settings", () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServer({ DATA_DIR: path.join(dataDir, "empty") });
  }, 60_000);
  afterAll(async () => {
    await server?.stop("SIGKILL");
  });

  test("serves / and /healthz from an empty DATA_DIR", async () => {
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: "ok", database: "up", redis: "not configured" });
    const home = await fetch(`${server.url}/`);
    expect(home.status).toBe(200);
    expect(home.headers.get("content-type")).toContain("text/html");
    expect(home.headers.get("content-security-policy")).toMatch(/script-src 'self' 'nonce-/);
    expect(home.headers.get("x-content-type-options")).toBe("nosniff");
    expect(fs.existsSync(path.join(dataDir, "empty", "pglite"))).toBe(true);
  });

  test("prints the demo sign-ins of the embedded database", () => {
    expect(server.output()).toContain("team@brandlift.test");
    expect(server.output()).toContain("customer@brandlift.test");
  });

  test("answers unknown API paths and malformed JSON in the JSON error shape, never HTML", async () => {
    const missing = await fetch(`${server.url}/api/does-not-exist`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get("content-type")).toContain("application/json");
    expect(await missing.json()).toMatchObject({ success: false, status: "error", code: "NOT_FOUND" });

    const malformed = await fetch(`${server.url}/api/auth/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: "{not json",
    });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ success: false, status: "error", code: "MALFORMED_JSON" });
  });

  test("gives hashed assets an immutable cache lifetime", async () => {
    const html = await (await fetch(`${server.url}/`)).text();
    const asset = /\/assets\/[^"]+\.js/.exec(html)?.[0];
    expect(asset).toBeDefined();
    const response = await fetch(`${server.url}${asset}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toContain("immutable");
  });

  test("shuts down cleanly on SIGTERM", async () => {
    const other = await startServer({ DATA_DIR: path.join(dataDir, "sigterm") });
    expect(await other.stop("SIGTERM")).toBe(0);
  }, 60_000);
});

describe("a bad setting stops boot with a message naming it", () => {
  test.each([
    ["PORT", "abc"],
    ["DATABASE_URL", "nonsense"],
    ["REDIS_URL", "http://not-redis"],
    ["STRIPE_SECRET_KEY", "pk_live_wrong"],
  ])("%s=%s", async (name, value) => {
    const { code, output } = await runServerExpectingFailure({ DATA_DIR: path.join(dataDir, "bad"), [name]: value });
    expect(code).not.toBe(0);
    expect(output).toContain(name);
    expect(output).not.toMatch(/\n\s+at /);
  });
});
