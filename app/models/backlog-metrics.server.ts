import { Gauge, register } from "prom-client";

import { logger } from "~/utils/logger.server";

import { jobCounts } from "./background-jobs.server";
import { emailCounts } from "./emails.server";

/*
 * The backlogs GET /metrics reports, read from the database when a scrape asks (decision 274):
 * jobs by kind and state, and e-mails waiting. Every worker of a node reads the same rows, so the
 * primary aggregates them by max, not sum. A read that fails leaves the series out of that scrape.
 */

if (!register.getSingleMetric("brandlift_jobs")) {
  new Gauge({
    name: "brandlift_jobs",
    help: "Background jobs, by kind and state",
    labelNames: ["kind", "state"],
    aggregator: "max",
    async collect() {
      this.reset();
      try {
        for (const { kind, state, count } of await jobCounts()) this.set({ kind, state }, count);
      } catch (error) {
        logger.warn({ err: error }, "metrics: job counts unavailable");
      }
    },
  });
}

if (!register.getSingleMetric("brandlift_emails_waiting")) {
  new Gauge({
    name: "brandlift_emails_waiting",
    help: "E-mails stored and not yet sent (queued or retrying)",
    aggregator: "max",
    async collect() {
      this.reset();
      try {
        const counts = await emailCounts();
        this.set(counts.queued + counts.retrying);
      } catch (error) {
        logger.warn({ err: error }, "metrics: e-mail counts unavailable");
      }
    },
  });
}
