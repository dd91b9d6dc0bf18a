import { logger } from "./logger.server";

/*
 * Work that must neither delay nor shape an answer: it starts once the current request has been
 * answered (the next turn of the event loop), so whatever it does (a database lookup, an e-mail)
 * cannot be told apart from outside by the answer or its timing. Forgot-password uses it: the
 * answer is the same whether or not the account exists, and the lookup happens after it.
 */

const pending = new Set<Promise<void>>();

export function afterResponse(label: string, task: () => Promise<unknown>) {
  const run: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
    .then(task)
    .then(
      () => undefined,
      (error: unknown) => logger.error({ err: error, task: label }, "background task failed"),
    )
    .finally(() => pending.delete(run));
  pending.add(run);
}

/** How many tasks have not finished yet. */
export function pendingBackgroundTasks() {
  return pending.size;
}

/** Waits for every task, including those the tasks start (shutdown, tests). */
export async function settleBackgroundTasks() {
  while (pending.size > 0) await Promise.allSettled([...pending]);
}

/**
 * Counts work in flight that background work should not compete with, and lets the background work
 * wait until none is left, or `maxWaitMs` at most (so a steady stream never starves it). The chat's
 * side work waits on a node's messages being stored (docs/decisions/321).
 */
export function busyGate(maxWaitMs: number) {
  let inFlight = 0;
  const waiting = new Set<() => void>();
  return {
    enter() {
      inFlight++;
    },
    leave() {
      inFlight = Math.max(0, inFlight - 1);
      if (inFlight === 0) for (const release of [...waiting]) release();
    },
    /** Resolves once nothing is in flight, or after `maxWaitMs`. */
    clear(): Promise<void> {
      if (inFlight === 0) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const release = () => {
          clearTimeout(timer);
          waiting.delete(release);
          resolve();
        };
        const timer = setTimeout(release, maxWaitMs);
        waiting.add(release);
      });
    },
  };
}
