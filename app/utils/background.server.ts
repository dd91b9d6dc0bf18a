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
