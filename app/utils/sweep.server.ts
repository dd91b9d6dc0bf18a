import { logger } from "~/utils/logger.server";

/**
 * Runs a background job on this node every `everyMs` (every node runs it: each job claims its rows,
 * so several nodes at once are safe). What it did is logged when it did anything (`work` answers a
 * count, or counts by kind); a failure is logged and the next round tries again. Returns the stop.
 */
export function startSweep({
  everyMs,
  work,
  done,
  failed,
  didSomething = (counts) => Object.values(counts).some((count) => count > 0),
}: {
  everyMs: number;
  work: () => Promise<number | Record<string, number>>;
  /** The log line when the round did something. */
  done: string;
  /** The log line when the round failed. */
  failed: string;
  /** Whether the round's counts are worth a log line (default: any of them above 0). */
  didSomething?: (counts: Record<string, number>) => boolean;
}): () => void {
  const run = () =>
    void work().then(
      (result) => {
        const counts: Record<string, number> = typeof result === "number" ? { count: result } : result;
        if (didSomething(counts)) logger.info(counts, done);
      },
      (error: unknown) => logger.warn({ err: error }, failed),
    );
  const timer = setInterval(run, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
