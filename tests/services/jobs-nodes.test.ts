import crypto from "node:crypto";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { connectPostgres, type Database } from "#db/client";
import { defineJob, JobEngine } from "~/utils/jobs.server";

/*
 * Two nodes of the job engine on real PostgreSQL, each with its own connection pool: every job is
 * claimed by one of them (FOR UPDATE SKIP LOCKED across connections) and runs once.
 */

const adminUrl = process.env.DATABASE_URL!;
const name = `brandlift_jobs_${crypto.randomBytes(4).toString("hex")}`;
let first: Database;
let second: Database;
let nodeA: JobEngine;
let nodeB: JobEngine;

beforeAll(async () => {
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  first = connectPostgres(url.toString(), { max: 4 });
  second = connectPostgres(url.toString(), { max: 4 });
  await first.migrate();
  nodeA = new JobEngine({ database: first });
  nodeB = new JobEngine({ database: second });
});

afterAll(async () => {
  await nodeA?.stop();
  await nodeB?.stop();
  await first?.close();
  await second?.close();
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists ${name} with (force)`);
  await admin.end();
});

describe("the job engine on two nodes (PostgreSQL)", () => {
  test("200 jobs claimed by two nodes at once: each runs exactly once, and both nodes take part", async () => {
    const runs = new Map<number, string[]>();
    let node = "";
    defineJob<{ n: number }>({
      kind: "services-count",
      retryLimit: 0,
      retryDelaySeconds: 1,
      leaseSeconds: 60,
      run: async ({ n }) => {
        runs.set(n, [...(runs.get(n) ?? []), node]);
        // A little work, so the two nodes overlap.
        await new Promise((resolve) => setTimeout(resolve, 2));
      },
    });
    for (let n = 0; n < 200; n++) await nodeA.enqueue("services-count", { n });
    const loop = async (engine: JobEngine, label: string) => {
      let total = 0;
      for (;;) {
        node = label;
        const ran = await engine.runDue();
        total += ran;
        if (ran === 0) return total;
      }
    };
    const [a, b] = await Promise.all([loop(nodeA, "A"), loop(nodeB, "B")]);
    expect(a + b).toBe(200);
    expect(a).toBeGreaterThan(0);
    expect(b).toBeGreaterThan(0);
    expect(runs.size).toBe(200);
    expect([...runs.values()].every((nodes) => nodes.length === 1)).toBe(true);
  });

  test("a recurring job is enqueued once when both nodes ask at the same moment", async () => {
    defineJob({ kind: "services-every-minute", everyMs: 60_000, retryLimit: 0, retryDelaySeconds: 1, leaseSeconds: 60, run: async () => {} });
    const now = new Date();
    const results = await Promise.all([nodeA.enqueueRecurring(now), nodeB.enqueueRecurring(now), nodeA.enqueueRecurring(now), nodeB.enqueueRecurring(now)]);
    expect(results.flat().filter((kind) => kind === "services-every-minute")).toHaveLength(1);
  });
});
