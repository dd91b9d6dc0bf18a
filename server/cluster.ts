import cluster, { type Worker } from "node:cluster";
import fs from "node:fs";
import { setupPrimary } from "@socket.io/cluster-adapter";

import { DATA_CHANGED_MESSAGE } from "~/utils/cluster-messages";
import { logger } from "~/utils/logger.server";

import { workerSocketPath } from "./worker-polling";

/*
 * WEB_CONCURRENCY > 1: this process only supervises. It forks that many workers, each a whole
 * node (Express, Remix, Socket.IO) sharing one listening port (the kernel hands connections out
 * round robin); Socket.IO broadcasts between them through the Redis adapter when REDIS_URL is
 * set, else through the primary (@socket.io/cluster-adapter). A worker that dies is replaced;
 * SIGTERM/SIGINT drain every worker, then the primary exits. docs/decisions/100-workers.md
 * Long-polling sessions reach their own worker through worker-polling.ts (decision 121).
 */
export function runPrimary(workers: number, options: { clusterAdapter: boolean }) {
  if (options.clusterAdapter) setupPrimary();
  let stopping = false;
  const started = new Map<number, number>();

  const fork = () => {
    const worker = cluster.fork();
    started.set(worker.id, Date.now());
    return worker;
  };

  cluster.on("exit", (worker: Worker, code, signal) => {
    const lived = Date.now() - (started.get(worker.id) ?? Date.now());
    started.delete(worker.id);
    // The private socket other workers pass its polling requests to (worker-polling.ts).
    fs.rmSync(workerSocketPath(process.pid, worker.id), { force: true });
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) {
        logger.info("all workers stopped");
        process.exit(0);
      }
      return;
    }
    logger.error({ worker: worker.process.pid, code, signal }, "worker exited: starting another");
    // A worker that cannot even boot (bad settings) would otherwise be restarted in a tight loop.
    setTimeout(fork, lived < 5_000 ? 1_000 : 0).unref();
  });

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "stopping workers");
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGTERM");
    setTimeout(() => process.exit(1), 15_000).unref();
    if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));

  // A worker changed data: the others' reused pages are no longer good (app/utils/data-generation.server.ts).
  cluster.on("message", (from: Worker, message: unknown) => {
    if (message !== DATA_CHANGED_MESSAGE) return;
    for (const worker of Object.values(cluster.workers ?? {})) if (worker && worker !== from && worker.isConnected()) worker.send(message);
  });

  logger.info({ workers }, "starting workers");
  for (let i = 0; i < workers; i++) fork();
}
