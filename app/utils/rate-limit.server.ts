import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { HttpError } from "./http.server";
import { redis } from "./redis.server";

/** Limits of contracts §6. Redis-backed with REDIS_URL (they hold across nodes), in memory otherwise. */
function limiter(keyPrefix: string, points: number, duration: number): RateLimiterAbstract {
  const memory = new RateLimiterMemory({ keyPrefix, points, duration });
  if (!redis) return memory;
  // If Redis is down the in-memory limiter stands in, so a Redis outage never opens the gates.
  return new RateLimiterRedis({ storeClient: redis, keyPrefix: `rl:${keyPrefix}`, points, duration, insuranceLimiter: memory });
}

export const limits = {
  signIn: limiter("sign-in", 10, 60),
  forgotPassword: limiter("forgot-password", 5, 3600),
  order: limiter("order", 20, 60),
  contact: limiter("contact", 5, 600),
};

export const RATE_LIMIT_MESSAGE = "Too many attempts. Please wait a moment and try again.";

/** Spends one point for each key; throws a 429 HttpError with Retry-After when any is exhausted. */
export async function consume(limit: RateLimiterAbstract, ...keys: string[]) {
  for (const key of keys) {
    try {
      await limit.consume(key.toLowerCase());
    } catch (result) {
      if (result instanceof RateLimiterRes) {
        const seconds = Math.max(1, Math.ceil(result.msBeforeNext / 1000));
        throw new HttpError(429, RATE_LIMIT_MESSAGE, "RATE_LIMITED", { "Retry-After": String(seconds) });
      }
      throw result;
    }
  }
}

/** The client address as Express saw it (trust proxy honoured), passed through the load context. */
export function clientIp(request: Request, context?: unknown): string {
  const ip = (context as { clientIp?: string } | undefined)?.clientIp;
  return ip ?? request.headers.get("X-Forwarded-For")?.split(",")[0]?.trim() ?? "unknown";
}
