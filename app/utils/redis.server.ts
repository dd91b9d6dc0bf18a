import { remember } from "@epic-web/remember";
import { Redis, type RedisOptions } from "ioredis";

import { env } from "./env.server";
import { logger } from "./logger.server";

/*
 * Redis is never a single point of failure (docs/decisions/060-redis-outages.md): every client
 * reconnects forever in the background, a command never waits for a connection that is not
 * there, and nothing that uses Redis lets one of its errors escape.
 */

/** Reconnect forever, backing off to 2 s: a node that booted without Redis picks it up later. */
const retryStrategy = (times: number) => Math.min(times * 100, 2000);

/** Every connection this process opened (commands, the adapter's two): what /healthz reports. */
const clients: Set<Redis> = remember("redis-clients", () => new Set<Redis>());

/** One shared Redis connection when REDIS_URL is set; null on the embedded default. */
export const redis: Redis | null = remember("redis", () => (env.redisUrl ? createRedis(env.redisUrl, "commands") : null));

/**
 * A command client: while the connection is down a command fails at once (no offline queue),
 * and a slow Redis fails it after 1 s, so callers fall back instead of holding a request.
 */
export function createRedis(url: string, name: string, options: RedisOptions = {}) {
  const client = new Redis(url, {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    commandTimeout: 1000,
    connectTimeout: 2000,
    retryStrategy,
    ...options,
  });
  watch(client, name);
  breakOnTimeout(client, name);
  clients.add(client);
  client.once("end", () => clients.delete(client));
  return client;
}

/**
 * The Socket.IO adapter's two connections. The adapter fires PUBLISH without awaiting it and
 * SUBSCRIBE once at start-up, so a rejection would be nobody's: publishes are fire-and-forget
 * here (a lost broadcast is caught up by `resync`), and subscriptions wait in the queue until
 * Redis answers (ioredis re-subscribes by itself after every reconnect).
 */
export function createAdapterClients(url: string) {
  const pub = createRedis(url, "socket.io publish");
  const sub = createRedis(url, "socket.io subscribe", { enableOfflineQueue: true, maxRetriesPerRequest: null, commandTimeout: undefined });
  swallowRejections(pub, ["publish"], "redis publish failed: other nodes miss this broadcast until they resync");
  swallowRejections(sub, ["subscribe", "psubscribe", "unsubscribe", "punsubscribe"], "redis subscription failed");
  return { pub, sub };
}

/** Resolves true once the shared connection is ready, false after `timeoutMs` or without Redis; never rejects. */
export function redisReady(timeoutMs = 1000): Promise<boolean> {
  const client = redis;
  if (!client) return Promise.resolve(false);
  if (client.status === "ready") return Promise.resolve(true);
  return new Promise((resolve) => {
    const onReady = () => {
      clearTimeout(timer);
      resolve(true);
    };
    const timer = setTimeout(() => {
      client.off("ready", onReady);
      resolve(false);
    }, timeoutMs);
    client.once("ready", onReady);
  });
}

/** How long /healthz waits for Redis to answer PING. */
export const REDIS_HEALTH_TIMEOUT_MS = 500;

/**
 * "up" when every open connection is ready and Redis answers PING within `timeoutMs`; "down"
 * otherwise. A stopped Redis (SIGSTOP, a host stuck in swap) keeps its connections "ready":
 * only an answer tells.
 */
export async function redisHealth(timeoutMs = REDIS_HEALTH_TIMEOUT_MS): Promise<"up" | "down" | "not configured"> {
  if (!env.redisUrl) return "not configured";
  if (!redis || ![...clients].every((c) => c.status === "ready")) return "down";
  let timer: NodeJS.Timeout | undefined;
  const answered = await Promise.race([
    redis.ping().then(
      () => true,
      () => false,
    ),
    new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs))),
  ]);
  clearTimeout(timer);
  return answered ? "up" : "down";
}

function swallowRejections(client: Redis, methods: string[], message: string) {
  // The methods are wrapped by name, which ioredis's typed client has no index for.
  const target = client as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const method of methods) {
    const original = target[method]!.bind(client);
    target[method] = (...args: unknown[]) => {
      const result = original(...args);
      if (result instanceof Promise) result.catch((error: Error) => logger.debug({ err: error.message }, message));
      return result;
    };
  }
}

/**
 * A Redis that stops answering (stuck host, swap) keeps the connection "ready": every command would
 * wait out its 1 s timeout. The first timeout drops the connection instead, so callers fall back at
 * once (rate limits to memory) until a fresh connection answers its ready check; the adapter's
 * clients then `resync` like after an outage.
 */
function breakOnTimeout(client: Redis, name: string) {
  const send = client.sendCommand.bind(client);
  client.sendCommand = ((command: Parameters<Redis["sendCommand"]>[0], stream?: Parameters<Redis["sendCommand"]>[1]) => {
    const result = send(command, stream);
    command.promise.catch((error: Error) => {
      if (error.message !== "Command timed out" || client.status !== "ready") return;
      logger.warn({ redis: name }, "redis is not answering: reconnecting");
      client.disconnect(true);
    });
    return result;
  }) as Redis["sendCommand"];
}

/** One warning when a connection is lost (or absent at boot), one line when it is back. */
function watch(client: Redis, name: string) {
  let warned = false;
  const warn = (reason: string) => {
    if (warned) return;
    warned = true;
    logger.warn({ redis: name, reason }, "redis unavailable: retrying in the background");
  };
  // Without an "error" listener an EventEmitter throws: ioredis reports every failed reconnect here.
  client.on("error", (error: Error) => warn(error.message));
  // A closed connection that is not ending (quit/disconnect) is a lost one.
  client.on("close", () => setImmediate(() => client.status !== "end" && warn("connection lost")));
  client.on("ready", () => {
    if (warned) logger.info({ redis: name }, "redis connection restored");
    warned = false;
  });
}
