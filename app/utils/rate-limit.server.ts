import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";

import { API_KEY_CALLS_PER_MINUTE } from "~/domain/api-keys";
import { ATTACHMENT_UPLOAD_WINDOW_SECONDS, ATTACHMENT_UPLOADS_PER_WINDOW } from "~/domain/attachment-limits";
import { MESSAGE_RATE } from "~/domain/chat";
import { tooManyAttemptsMessage } from "~/domain/wait";

import { HttpError } from "./http.server";
import { redis } from "./redis.server";

/** Rate limits (docs/api.md: sign-in, forgot-password, orders, contact). Redis-backed with REDIS_URL (they hold across nodes), in memory otherwise. */
function limiter(keyPrefix: string, points: number, duration: number): RateLimiterAbstract {
  const memory = resettableMemory(keyPrefix, points, duration);
  if (!redis) return memory;
  // While Redis is down (or slower than its 1 s command timeout) the in-memory limiter stands in
  // at once, so an outage neither opens the gates nor holds a request.
  return new RateLimiterRedis({
    storeClient: redis,
    keyPrefix: `rl:${keyPrefix}`,
    points,
    duration,
    insuranceLimiter: memory,
    rejectIfRedisNotReady: true,
  });
}

/*
 * In-memory counters are per process. Tests that share a worker process between files start each file
 * from fresh counters (`resetRateLimits`); the limiter objects stay the same, since routes hold them.
 */
const memoryResets = new Set<() => void>();
function resettableMemory(keyPrefix: string, points: number, duration: number): RateLimiterAbstract {
  let current = new RateLimiterMemory({ keyPrefix, points, duration });
  memoryResets.add(() => (current = new RateLimiterMemory({ keyPrefix, points, duration })));
  return new Proxy(current, {
    get(_target, property) {
      const value: unknown = Reflect.get(current, property, current);
      return typeof value === "function" ? value.bind(current) : value;
    },
  });
}

/** Forgets every in-memory count (between test files sharing a process). */
export function resetRateLimits() {
  for (const reset of memoryResets) reset();
}

export const limits = {
  /** Sign-in failures per client address and e-mail. */
  signIn: limiter("sign-in", 10, 60),
  /** Sign-in failures per client address, whatever the e-mail. */
  signInAddress: limiter("sign-in-ip", 50, 600),
  /** Sign-in failures per account from anywhere: high, so that strangers cannot lock an owner out. */
  signInAccount: limiter("sign-in-account", 100, 3600),
  /** Wrong two-factor codes (sign-in, set-up, turning it off) per account, and per client address (the keys keep their first names). */
  twoFactor: limiter("second-factor", 10, 900),
  twoFactorAddress: limiter("second-factor-ip", 30, 900),
  /** Passkey sign-in: options handed out, and answers checked, per client address. */
  passkeyOptions: limiter("passkey-options", 60, 600),
  passkeySignIn: limiter("passkey-sign-in", 30, 600),
  /** Magic sign-in links: like forgot-password, per e-mail and per client address. */
  magicLink: limiter("magic-link", 5, 3600),
  magicLinkAddress: limiter("magic-link-ip", 20, 3600),
  forgotPassword: limiter("forgot-password", 5, 3600),
  forgotPasswordAddress: limiter("forgot-password-ip", 20, 3600),
  /** E-mail change requests per account, and per client address (each may mail an address). */
  emailChange: limiter("email-change", 5, 3600),
  emailChangeAddress: limiter("email-change-ip", 20, 3600),
  order: limiter("order", 20, 60),
  contact: limiter("contact", 5, 600),
  /** Chat messages per user across all their sockets. */
  chatMessage: limiter("chat-message", MESSAGE_RATE.points, MESSAGE_RATE.windowMs / 1000),
  /** Chat attachment uploads per user (app/domain/attachment-limits.ts). */
  chatUpload: limiter("chat-upload", ATTACHMENT_UPLOADS_PER_WINDOW, ATTACHMENT_UPLOAD_WINDOW_SECONDS),
  /** Data exports per account an hour, and the one running per account (a lease given back when it ends; decision 262). */
  accountExport: limiter("account-export", 3, 3600),
  accountExportRunning: limiter("account-export-running", 1, 1800),
  /** Calls made with one API key (decision 284). */
  apiKey: limiter("api-key", API_KEY_CALLS_PER_MINUTE, 60),
};

/** A 429 says how long to wait: the Retry-After in words ("…Please try again in about an hour."). */

/** Spends one point for each key; throws a 429 HttpError with Retry-After when any is exhausted. */
export async function consume(limit: RateLimiterAbstract, ...keys: string[]) {
  for (const key of keys) {
    try {
      await limit.consume(key.toLowerCase());
    } catch (result) {
      if (result instanceof RateLimiterRes) {
        const seconds = Math.max(1, Math.ceil(result.msBeforeNext / 1000));
        throw new HttpError(429, tooManyAttemptsMessage(seconds), "RATE_LIMITED", { "Retry-After": String(seconds) });
      }
      throw result;
    }
  }
}

/** Throws the 429 of `consume` when `key` has no point left, without spending one. */
export async function ensureAvailable(limit: RateLimiterAbstract, key: string) {
  const state = await limit.get(key.toLowerCase());
  if (state && state.consumedPoints >= limit.points) {
    const seconds = Math.max(1, Math.ceil(state.msBeforeNext / 1000));
    throw new HttpError(429, tooManyAttemptsMessage(seconds), "RATE_LIMITED", { "Retry-After": String(seconds) });
  }
}

/** Gives back a point `consume` spent (a successful sign-in is not a failure). */
export async function refund(limit: RateLimiterAbstract, ...keys: string[]) {
  await Promise.all(keys.map((key) => limit.reward(key.toLowerCase(), 1)));
}

/** Forgets the key's count, refused attempts included: a lease (one at a time) given back. */
export async function release(limit: RateLimiterAbstract, key: string) {
  await limit.delete(key.toLowerCase());
}

/** Spends a point without refusing: the refusal comes on the next attempt. */
export async function penalize(limit: RateLimiterAbstract, key: string) {
  await limit.penalty(key.toLowerCase(), 1);
}

/** The client address as Express saw it (trust proxy honoured), passed through the load context. */
export function clientIp(request: Request, context?: unknown): string {
  const ip = (context as { clientIp?: string } | undefined)?.clientIp;
  return ip ?? request.headers.get("X-Forwarded-For")?.split(",")[0]?.trim() ?? "unknown";
}
