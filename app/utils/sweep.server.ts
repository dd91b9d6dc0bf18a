import { defineJob, unregisterJob } from "./jobs.server";
import { logger } from "./logger.server";

/**
 * A recurring background job run by the job engine (app/utils/jobs.server.ts): enqueued every
 * `everyMs` by whichever node comes first, run once, on one node. What it did is logged when it did
 * anything (`work` answers a count, or counts by kind); a failure is retried twice, then kept as a
 * failed job on the jobs page, and the next round runs anyway. Returns the unregistration.
 */
export function startSweep({
  kind,
  everyMs,
  work,
  done,
  failed,
  didSomething = (counts) => Object.values(counts).some((count) => count > 0),
}: {
  /** Its name on the jobs page; by default made from `done`. */
  kind?: string;
  everyMs: number;
  work: () => Promise<number | Record<string, number>>;
  /** The log line when the round did something. */
  done: string;
  /** The log line when the round failed. */
  failed: string;
  /** Whether the round's counts are worth a log line (default: any of them above 0). */
  didSomething?: (counts: Record<string, number>) => boolean;
}): () => void {
  const name = kind ?? done.toLowerCase().replace(/[^a-z0-9]+/g, "-");
  defineJob({
    kind: name,
    everyMs,
    retryLimit: 2,
    retryDelaySeconds: 60,
    leaseSeconds: 15 * 60,
    run: async () => {
      try {
        const result = await work();
        const counts: Record<string, number> = typeof result === "number" ? { count: result } : result;
        if (didSomething(counts)) logger.info(counts, done);
      } catch (error) {
        logger.warn({ err: error }, failed);
        throw error;
      }
    },
  });
  return () => unregisterJob(name);
}
