import { jobCounts as countJobs, listJobs, retryFailedJob, type JobState } from "~/utils/jobs.server";

import { recordAudit } from "./audit.server";

/*
 * The staff's view of the job engine (/dashboard/jobs) and its counts for metrics: how many jobs of
 * each kind wait, run and failed, the latest of each, and retrying a failed one (audited).
 */

/** Jobs by kind and state: [{ kind, state, count }]. */
export function jobCounts() {
  return countJobs();
}

const SHOWN: JobState[] = ["failed", "active", "retry", "created"];

export async function jobsOverview() {
  const counts = await countJobs();
  const byKind = new Map<string, Record<string, number>>();
  for (const { kind, state, count } of counts) byKind.set(kind, { ...byKind.get(kind), [state]: count });
  const [failed, running, retrying, queued] = await Promise.all(SHOWN.map((state) => listJobs(state, 50)));
  return {
    kinds: [...byKind].map(([kind, states]) => ({
      kind,
      queued: (states.created ?? 0) + (states.retry ?? 0),
      running: states.active ?? 0,
      failed: states.failed ?? 0,
      completed: states.completed ?? 0,
    })),
    failed: failed!,
    running: running!,
    waiting: [...retrying!, ...queued!],
  };
}

/** Queues a failed job again with one more attempt. Answers false when no failed job has that id. */
export async function retryJob(actor: { id: string }, jobId: string) {
  const kind = await retryFailedJob(jobId);
  if (!kind) return false;
  await recordAudit({ actor, action: "job.retry", target: { kind: "job", id: jobId, label: kind } });
  return true;
}
