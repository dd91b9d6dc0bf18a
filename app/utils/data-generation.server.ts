import { randomUUID } from "node:crypto";
import cluster from "node:cluster";
import { remember } from "@epic-web/remember";
import type { Redis } from "ioredis";

import { DATA_CHANGED_MESSAGE } from "./cluster-messages";
import { database } from "./db.server";
import { env } from "./env.server";
import { logger } from "./logger.server";
import { createRedis, redis } from "./redis.server";

/*
 * A number that moves whenever this product's data may have changed, on any node: every statement or
 * transaction that changed rows (db/client.ts watchWrites) moves it here at once, and is announced to
 * the other processes (Redis when REDIS_URL is set, else the cluster's primary between workers), which
 * move theirs when the word arrives. A rendered page kept under one number (server/page-cache.ts) is
 * good only while the number has not moved. While this process might miss another's word (its Redis
 * subscription down), `current()` is null and nothing is reused. Decision 326.
 */

const CHANNEL = "brandlift:data-changed";

export interface DataGeneration {
  /** The number now, or null while another process's changes might not reach this one. */
  current(): number | null;
  /** Stops listening (shutdown). */
  stop(): Promise<void>;
}

/** This process's generation, once something follows it (one per process, across dev reloads). */
const followed: { generation?: DataGeneration } = remember("data-generation", () => ({}));

/**
 * The data's generation, started on first call: its Redis subscription or cluster messages, and the
 * database's change watcher. Nothing is watched or announced until something reads it (the page
 * cache, when it is on).
 */
export function followDataGeneration(): DataGeneration {
  return (followed.generation ??= createDataGeneration());
}

/** Stops the generation if it was started (shutdown). */
export async function stopDataGeneration() {
  await followed.generation?.stop();
}

function createDataGeneration(): DataGeneration {
  const self = randomUUID();
  let value = 0;
  let heard = true;
  let announce: () => void = () => {};
  let stop = async () => {};

  if (env.redisUrl && redis) {
    heard = false;
    const sub = createRedis(env.redisUrl, "data changes subscribe", {
      enableOfflineQueue: true,
      maxRetriesPerRequest: null,
      commandTimeout: undefined,
      autoResubscribe: false,
    });
    // Words missed while the subscription was down are unknown: everything kept before is dropped.
    const subscribe = () =>
      sub.subscribe(CHANNEL).then(
        () => {
          value++;
          heard = true;
        },
        (error: Error) => logger.debug({ err: error.message }, "data changes: subscribe failed"),
      );
    sub.on("ready", () => void subscribe());
    sub.on("close", () => (heard = false));
    sub.on("message", (_channel: string, from: string) => {
      if (from !== self) value++;
    });
    announce = oncePerTurn(publisher(redis, self));
    stop = async () => {
      await sub.quit().catch(() => sub.disconnect());
    };
  } else if (cluster.isWorker) {
    const onMessage = (message: unknown) => {
      if (message === DATA_CHANGED_MESSAGE) value++;
    };
    process.on("message", onMessage);
    announce = oncePerTurn(() => process.send?.(DATA_CHANGED_MESSAGE));
    stop = async () => void process.off("message", onMessage);
  }

  const unwatch = database.watchWrites(() => {
    value++;
    announce();
  });
  return {
    current: () => (heard ? value : null),
    async stop() {
      unwatch();
      await stop();
    },
  };
}

/** One call of `send` for the changes of one turn of the event loop, made before the next turn (a burst of writes makes one word). */
function oncePerTurn(send: () => void) {
  let queued = false;
  return () => {
    if (queued) return;
    queued = true;
    process.nextTick(() => {
      queued = false;
      send();
    });
  };
}

/** A PUBLISH of this process's word; one that could not go out (Redis down) goes when the connection is back. */
function publisher(client: Redis, self: string) {
  let unsent = false;
  const send = () =>
    void client.publish(CHANNEL, self).then(
      () => (unsent = false),
      () => (unsent = true),
    );
  client.on("ready", () => unsent && send());
  return send;
}
