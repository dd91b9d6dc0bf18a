import { startBriefReminderSweep } from "~/models/briefs.server";
import { ensureCatalogue } from "~/models/catalogue.server";
import { startUnsentAttachmentSweep } from "~/models/chat-attachments.server";
import { backfillClientsOfOne } from "~/models/clients.server";
import { DEMO_PASSWORD, seedDemo } from "~/models/demo.server";
import { startNotificationDigest } from "~/models/notifications.server";
import { startPendingOrderSweep } from "~/models/pending-orders.server";
import { startPostDueSweep } from "~/models/post-due.server";
import { startReviewDeadlineSweep } from "~/models/post-review-deadlines.server";
import { startReviewNoticeSweep } from "~/models/post-review-notices.server";
import { startReportPurge } from "~/models/report-versions.server";
import { settleBackgroundTasks } from "~/utils/background.server";
import { stopDataGeneration } from "~/utils/data-generation.server";
import { database } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import { jobs } from "~/utils/jobs.server";
import { logger } from "~/utils/logger.server";
import { redis, redisHealth, redisReady } from "~/utils/redis.server";

/** Start-up work of one node: migrate, seed the catalogue if empty, demo accounts on the embedded database, and the job engine's loop (e-mails, and the recurring jobs: the hourly sweep of unsent chat uploads, the sweep of orders stuck in pending, the brief reminders every ten minutes, the calendar's review e-mails every five, the purge of reports deleted 30 days ago, post.due every minute). */
export async function boot() {
  await database.migrate();
  // Every pooled connection before the first request, not in the middle of a burst of them (decision 316).
  await database.warm?.();
  if (await ensureCatalogue()) logger.info("seeded the catalogue");
  // Customers from before client teams become owners of clients of one, in short batches after start-up.
  void backfillClientsOfOne()
    .then((moved) => moved > 0 && logger.info({ moved }, "customers became owners of clients of one"))
    .catch((error: unknown) => logger.warn({ err: error }, "moving customers into clients of one stopped: the next start goes on"));
  const demo = database.kind === "pglite" ? await seedDemo() : null;
  // Rate limits count in memory until Redis is ready: give it a moment, never wait for it.
  await redisReady(1000);
  if (stopSweeps.length === 0) {
    // Review reminders and deadlines every minute (decision 292).
    stopSweeps.push(startReviewDeadlineSweep());
    stopSweeps.push(
      startUnsentAttachmentSweep(),
      startPendingOrderSweep(),
      startBriefReminderSweep(),
      startReviewNoticeSweep(),
      startReportPurge(),
      startPostDueSweep(),
      startNotificationDigest(),
    );
    await jobs.start();
  }
  return {
    database: database.kind,
    demoLogins: demo?.map((account) => ({ ...account, password: DEMO_PASSWORD })) ?? [],
    appUrl: env.appUrl,
  };
}

/** The recurring jobs this node registered (app/utils/sweep.server.ts), forgotten on shutdown. */
const stopSweeps: (() => void)[] = [];

export async function shutdown() {
  for (const stop of stopSweeps.splice(0)) stop();
  // A reset e-mail asked for just before the stop still goes out.
  await settleBackgroundTasks();
  // Jobs running here finish; one cut short by a kill is retried elsewhere when its lease runs out.
  await jobs.stop();
  await stopDataGeneration();
  if (redis) await redis.quit().catch(() => redis?.disconnect());
  await database.close();
}

export type Health = { status: "ok" | "degraded" | "unavailable"; database: "up" | "down"; redis: "up" | "down" | "not configured" };

/**
 * What /healthz answers. Without the database nothing works ("unavailable", 503); without Redis
 * everything still does on each node ("degraded", 200: a load balancer must keep the node).
 */
export async function health(): Promise<Health> {
  const [database, redisState] = await Promise.all([
    Promise.race([pingDatabase(), new Promise<"down">((resolve) => setTimeout(() => resolve("down"), 2000).unref())]),
    redisHealth(),
  ]);
  const status = database === "down" ? "unavailable" : redisState === "down" ? "degraded" : "ok";
  return { status, database, redis: redisState };
}

async function pingDatabase(): Promise<"up" | "down"> {
  try {
    await database.ping();
    return "up";
  } catch {
    return "down";
  }
}
