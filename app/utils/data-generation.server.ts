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
  /** This process changed data: move the number and tell the others. */
  changed(): void;
  /** Stops listening (shutdown). */
  stop(): Promise<void>;
}

export const dataGeneration: DataGeneration = remember("data-generation", () => createDataGeneration());

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
    announce = publisher(redis, self);
    stop = async () => {
      await sub.quit().catch(() => sub.disconnect());
    };
  } else if (cluster.isWorker) {
    const onMessage = (message: unknown) => {
      if (message === DATA_CHANGED_MESSAGE) value++;
    };
    process.on("message", onMessage);
    announce = () => process.send?.(DATA_CHANGED_MESSAGE);
    stop = async () => void process.off("message", onMessage);
  }

  const generation: DataGeneration = {
    current: () => (heard ? value : null),
    changed() {
      value++;
      announce();
    },
    stop: () => stop(),
  };
  database.watchWrites(() => generation.changed());
  return generation;
}

/**
 * One PUBLISH for the changes of one turn of the event loop, sent before the next turn (a burst of
 * writes makes one word). A word that could not go out (Redis down) goes when the connection is back.
 */
function publisher(client: Redis, self: string) {
  let queued = false;
  let unsent = false;
  const send = () => {
    queued = false;
    client.publish(CHANNEL, self).then(
      () => (unsent = false),
      () => (unsent = true),
    );
  };
  client.on("ready", () => unsent && send());
  return () => {
    if (queued) return;
    queued = true;
    process.nextTick(send);
  };
}
