import { remember } from "@epic-web/remember";
import { Redis } from "ioredis";
import { env } from "./env.server";
import { logger } from "./logger.server";

/** One shared Redis connection when REDIS_URL is set; null on the embedded default. */
export const redis: Redis | null = remember("redis", () => (env.redisUrl ? createRedis(env.redisUrl) : null));

export function createRedis(url: string) {
  const client = new Redis(url, {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: true,
    retryStrategy: (times) => Math.min(times * 200, 2000),
  });
  client.on("error", (err) => logger.warn({ err: err.message }, "redis error"));
  return client;
}
