import { register } from "prom-client";
import { describe, expect, test } from "vitest";

import { db, schema } from "~/utils/db.server";
import { defineJob, jobs } from "~/utils/jobs.server";

import { parseMetrics } from "../../tests/support/prometheus";

import "./backlog-metrics.server";

defineJob({ kind: "metrics-sample", retryLimit: 0, retryDelaySeconds: 1, leaseSeconds: 60, run: async () => {} });

describe("the backlogs a scrape reports", () => {
  test("jobs by kind and state, and e-mails waiting (queued or retrying), read from the database", async () => {
    await jobs.enqueue("metrics-sample");
    await jobs.enqueue("metrics-sample");
    const message = { to: "a@b.test", subject: "s", text: "t" } as never;
    await db.insert(schema.emails).values([
      { recipient: "a@b.test", subject: "one", message, state: "queued" },
      { recipient: "a@b.test", subject: "two", message, state: "retrying" },
      { recipient: "a@b.test", subject: "three", message, state: "sent" },
      { recipient: "a@b.test", subject: "four", message, state: "failed" },
    ]);

    const samples = parseMetrics(await register.metrics());
    expect(samples.find((s) => s.name === "brandlift_jobs" && s.labels.kind === "metrics-sample" && s.labels.state === "created")?.value).toBe(2);
    expect(samples.find((s) => s.name === "brandlift_emails_waiting")?.value).toBe(2);
  });
});
