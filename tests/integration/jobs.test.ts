import { afterAll, describe, expect, test } from "vitest";

import { database } from "~/utils/db.server";
import { defineJob, jobCounts, JobEngine, retryFailedJob } from "~/utils/jobs.server";

import { driverCallsDuring } from "../support/driver-calls";
import { jobsOf, travelJobs } from "../support/jobs";

/*
 * The job engine as two nodes see it: two engines on one database (each a node's), claiming,
 * retrying, taking over a dead node's job and enqueueing a recurring job once.
 */

const nodeA = new JobEngine();
const nodeB = new JobEngine();
afterAll(async () => {
  await nodeA.stop();
  await nodeB.stop();
});

const runs: Record<string, string[]> = {};
const ran = (kind: string) => runs[kind] ?? [];

defineJob<{ n: number }>({
  kind: "test-count",
  retryLimit: 2,
  retryDelaySeconds: 10,
  leaseSeconds: 60,
  run: async ({ n }) => void (runs["test-count"] ??= []).push(String(n)),
});

describe("the job engine", () => {
  test("two nodes claiming the same jobs: each job runs once", async () => {
    for (let n = 0; n < 25; n++) await nodeA.enqueue("test-count", { n });
    const [a, b] = await Promise.all([nodeA.runDue(), nodeB.runDue()]);
    expect(a + b).toBe(25);
    expect(ran("test-count").sort()).toEqual(Array.from({ length: 25 }, (_, n) => String(n)).sort());
    expect((await jobsOf("test-count")).every((job) => job.state === "completed")).toBe(true);
    // Nothing is left to claim.
    expect(await nodeB.runDue()).toBe(0);
  });

  test("a failing job is retried with growing delays, then kept as failed with its error, and retried from the jobs page", async () => {
    let attempts = 0;
    let healthy = false;
    defineJob({
      kind: "test-flaky",
      retryLimit: 2,
      retryDelaySeconds: 10,
      leaseSeconds: 60,
      run: async () => {
        attempts++;
        if (!healthy) throw new Error("the far side is down");
      },
    });
    const id = await nodeA.enqueue("test-flaky");
    await nodeA.runDue();
    let [job] = await jobsOf("test-flaky");
    expect(job).toMatchObject({ id, state: "retry" });
    // Not due yet: the delay is at least the configured 10 s.
    expect(new Date(job!.startAfter).getTime()).toBeGreaterThan(Date.now() + 9_000);
    expect(await nodeB.runDue()).toBe(0);

    await travelJobs(20);
    await nodeB.runDue();
    [job] = await jobsOf("test-flaky");
    // The second delay doubles: at least 20 s.
    expect(new Date(job!.startAfter).getTime()).toBeGreaterThan(Date.now() + 19_000);

    await travelJobs(40);
    await nodeA.runDue();
    [job] = await jobsOf("test-flaky");
    expect(attempts).toBe(3);
    expect(job).toMatchObject({ state: "failed", output: { message: "the far side is down" } });
    expect(await jobCounts()).toContainEqual({ kind: "test-flaky", state: "failed", count: 1 });

    healthy = true;
    expect(await retryFailedJob(id)).toBe("test-flaky");
    await nodeB.runDue();
    expect(attempts).toBe(4);
    expect((await jobsOf("test-flaky"))[0]!.state).toBe("completed");
    expect(await retryFailedJob(id)).toBeNull();
  });

  test("a node that dies mid-job loses nothing: when its lease runs out the job runs again on another node", async () => {
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    let revive!: () => void;
    const killed = new Promise<void>((resolve) => (revive = resolve));
    const finishedOn: string[] = [];
    let node = "A";
    defineJob({
      kind: "test-lease",
      retryLimit: 3,
      retryDelaySeconds: 5,
      leaseSeconds: 30,
      run: async () => {
        if (node === "A") {
          started();
          // Node A is killed here: its run goes no further (until the test lets the process end).
          await killed;
          throw new Error("node A was killed");
        }
        finishedOn.push(node);
      },
    });
    await nodeA.enqueue("test-lease");
    const deadRun = nodeA.runDue();
    await running;
    expect((await jobsOf("test-lease"))[0]!.state).toBe("active");

    node = "B";
    // Within the lease nobody else may take it.
    await nodeB.maintain();
    expect(await nodeB.runDue()).toBe(0);
    // Past it, maintenance gives it back and node B runs it.
    await travelJobs(31);
    await nodeB.maintain();
    await travelJobs(60);
    expect(await nodeB.runDue()).toBe(1);
    expect(finishedOn).toEqual(["B"]);
    expect((await jobsOf("test-lease"))[0]!.state).toBe("completed");
    // The dead node's late word changes nothing.
    revive();
    await deadRun;
    expect((await jobsOf("test-lease"))[0]!.state).toBe("completed");
  });

  test("a recurring job is enqueued once per period across nodes", async () => {
    defineJob({ kind: "test-every-minute", everyMs: 60_000, retryLimit: 0, retryDelaySeconds: 1, leaseSeconds: 60, run: async () => {} });
    const now = new Date();
    const [a, b] = await Promise.all([nodeA.enqueueRecurring(now), nodeB.enqueueRecurring(now)]);
    expect([...a, ...b].filter((kind) => kind === "test-every-minute")).toHaveLength(1);
    expect(await jobsOf("test-every-minute")).toHaveLength(1);
    // Later in the same minute: nothing; a minute on: once more, whichever node asks.
    expect(await nodeB.enqueueRecurring(new Date(now.getTime() + 30_000))).not.toContain("test-every-minute");
    const later = new Date(now.getTime() + 60_000);
    const [c, d] = await Promise.all([nodeB.enqueueRecurring(later), nodeA.enqueueRecurring(later)]);
    expect([...c, ...d].filter((kind) => kind === "test-every-minute")).toHaveLength(1);
    expect(await jobsOf("test-every-minute")).toHaveLength(2);
  });

  test("a round of the loop with nothing due asks the database twice, however many kinds there are", async () => {
    // pg-boss's statements and the loop's own go through `execute`; the rest through the query builder.
    const executed: string[] = [];
    // The clock stands still for this node, so no recurring kind falls due between its two rounds.
    const at = new Date();
    const node = new JobEngine({
      database: { ...database, execute: (text, values) => (executed.push(text), database.execute(text, values)) },
      now: () => at,
    });
    try {
      // Everything due now (recurring runs included) is run by a first round.
      await node.poll();
      executed.length = 0;
      const { result, calls } = await driverCallsDuring(() => node.poll());
      expect(result).toBe(0);
      expect(executed.map((text) => text.trim().split(/\s+/).slice(0, 2).join(" "))).toEqual(["WITH made", "SELECT k.name"]);
      expect(calls.filter((call) => !executed.includes(call.text))).toEqual([]);
      // A job stored meanwhile is found by the next round.
      await nodeB.enqueue("test-count", { n: 100 });
      expect(await node.poll()).toBe(1);
      expect(ran("test-count")).toContain("100");
    } finally {
      await node.stop();
    }
  });

  test("runNow on a job another run claimed first answers once that run is over, on this node or another", async () => {
    let started = () => {};
    let release = () => {};
    const finished: string[] = [];
    defineJob<{ n: number }>({
      kind: "test-claimed-first",
      retryLimit: 0,
      retryDelaySeconds: 1,
      leaseSeconds: 60,
      run: async ({ n }) => {
        started();
        await new Promise<void>((resolve) => (release = resolve));
        finished.push(String(n));
      },
    });
    for (const [n, asker] of [
      [1, nodeA],
      [2, nodeB],
    ] as const) {
      const id = await nodeA.enqueue("test-claimed-first", { n });
      const running = new Promise<void>((resolve) => (started = resolve));
      // Node A claims and runs it (as its loop would; only this job, whatever else is due).
      const first = nodeA.runNow("test-claimed-first", id);
      await running;
      // Node A's second call (n 1) and node B's (n 2) find it claimed and wait for that run.
      let answered = false;
      const asked = asker.runNow("test-claimed-first", id).then((ran) => ((answered = true), ran));
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(answered).toBe(false);
      release();
      expect(await asked).toBe(false);
      expect(finished).toContain(String(n));
      expect(await first).toBe(true);
      expect((await jobsOf("test-claimed-first")).filter((job) => job.state !== "completed")).toEqual([]);
    }
  });

  test("a job stored in a transaction that rolls back never exists", async () => {
    await database.db
      .transaction(async (tx) => {
        await nodeA.enqueue("test-count", { n: 99 }, { tx });
        throw new Error("rolled back");
      })
      .catch(() => {});
    expect((await jobsOf("test-count")).filter((job) => job.state !== "completed")).toEqual([]);
  });
});
