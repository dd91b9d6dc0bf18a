import path from "node:path";
import { describe, expect, test } from "vitest";

import { EnvError, parseEnv } from "./env.server";

describe("settings", () => {
  test("with nothing set, every embedded default", () => {
    const env = parseEnv({});
    expect(env.port).toBe(3000);
    expect(env.host).toBe("0.0.0.0");
    expect(env.appUrl).toBe("http://localhost:3000");
    expect(env.dataDir).toBe(path.resolve("./data"));
    expect(env.storageDir).toBe(path.resolve("./data/uploads"));
    expect(env.outboxDir).toBe(path.resolve("./data/outbox"));
    expect(env.databaseUrl).toBeUndefined();
    expect(env.redisUrl).toBeUndefined();
    expect(env.stripe).toBeUndefined();
    expect(env.s3).toBeUndefined();
    expect(env.secureCookies).toBe(false);
  });

  test("PASSWORD_HASH_COST=test counts only under NODE_ENV=test: passwords keep the production cost otherwise", () => {
    expect(parseEnv({}).passwordHashCost).toBe("production");
    expect(parseEnv({ PASSWORD_HASH_COST: "test" }).passwordHashCost).toBe("production");
    expect(parseEnv({ PASSWORD_HASH_COST: "test", NODE_ENV: "production" }).passwordHashCost).toBe("production");
    expect(parseEnv({ PASSWORD_HASH_COST: "test", NODE_ENV: "development" }).passwordHashCost).toBe("production");
    expect(parseEnv({ PASSWORD_HASH_COST: "test", NODE_ENV: "test" }).passwordHashCost).toBe("test");
    expect(() => parseEnv({ PASSWORD_HASH_COST: "cheap" })).toThrow(EnvError);
  });

  test("APP_URL follows PORT and decides Secure cookies", () => {
    expect(parseEnv({ PORT: "4000" }).appUrl).toBe("http://localhost:4000");
    const https = parseEnv({ APP_URL: "https://brandlift.example/" });
    expect(https.appUrl).toBe("https://brandlift.example");
    expect(https.secureCookies).toBe(true);
  });

  test("PAGE_CACHE_SECONDS: 5 s unless set, 0 turns answering signed-in pages from memory off", () => {
    expect(parseEnv({}).pageCacheMs).toBe(5000);
    expect(parseEnv({ PAGE_CACHE_SECONDS: "" }).pageCacheMs).toBe(5000);
    expect(parseEnv({ PAGE_CACHE_SECONDS: "0" }).pageCacheMs).toBe(0);
    expect(parseEnv({ PAGE_CACHE_SECONDS: "30" }).pageCacheMs).toBe(30_000);
  });

  test("SESSION_SECRET is a list: first signs, all verify", () => {
    expect(parseEnv({ SESSION_SECRET: "new, old" }).sessionSecrets).toEqual(["new", "old"]);
  });

  test.each([
    ["PORT", "abc"],
    ["PORT", "70000"],
    ["DATABASE_URL", "nonsense"],
    ["REDIS_URL", "postgres://x"],
    ["APP_URL", "ftp://x"],
    ["SMTP_URL", "mail.example.com"],
    ["STRIPE_SECRET_KEY", "pk_test_123"],
    ["TEAM_INBOX", "not-an-email"],
    ["PAGE_CACHE_SECONDS", "-1"],
    ["PAGE_CACHE_SECONDS", "soon"],
    ["PAGE_CACHE_SECONDS", "61"],
  ])("%s=%s is refused with a message naming it", (name, value) => {
    let error: unknown;
    try {
      parseEnv({ [name]: value });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(EnvError);
    expect((error as Error).message).toContain(name);
  });

  test("S3 settings switch storage to S3", () => {
    const env = parseEnv({ S3_BUCKET: "reports", S3_ENDPOINT: "http://127.0.0.1:4569" });
    expect(env.s3).toMatchObject({ bucket: "reports", endpoint: "http://127.0.0.1:4569", region: "us-east-1" });
  });
});
