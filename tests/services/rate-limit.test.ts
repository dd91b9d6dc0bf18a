import crypto from "node:crypto";
import { expect, test, vi } from "vitest";

test("sign-in limits hold across nodes: the count lives in Redis", async () => {
  const key = `ip:${crypto.randomUUID()}`;
  // A node counts in memory until its Redis connection is ready (boot waits for it the same way).
  expect(await (await import("~/utils/redis.server")).redisReady(5000)).toBe(true);
  const nodeA = await import("~/utils/rate-limit.server");
  for (let i = 0; i < 10; i++) await nodeA.consume(nodeA.limits.signIn, key);

  // A second copy of the module stands for a second app node: its own limiter objects and
  // in-memory fallback, sharing only Redis.
  vi.resetModules();
  const nodeB = await import("~/utils/rate-limit.server");
  expect(nodeB.limits.signIn).not.toBe(nodeA.limits.signIn);
  await expect(nodeB.consume(nodeB.limits.signIn, key)).rejects.toMatchObject({
    status: 429,
    headers: { "Retry-After": expect.stringMatching(/^\d+$/) },
  });

  const redis = (await import("~/utils/redis.server")).redis!;
  expect(await redis.exists(`rl:sign-in:${key}`)).toBe(1);
});
