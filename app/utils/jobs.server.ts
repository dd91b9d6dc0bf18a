import { and, eq, lte, sql, type SQL } from "drizzle-orm";
import PgBoss from "pg-boss";

import { queryRows } from "./db-cursor.server";
import { database as appDatabase, JOB_SCHEMA, schema, type Database, type Tx } from "./db.server";
import { logger } from "./logger.server";

/*
 * One job engine for every background job (docs/decisions/270): pg-boss on the app's own database,
 * PostgreSQL or the embedded PGlite, through the app's own connection. pg-boss keeps the jobs:
 * a claim is `FOR UPDATE SKIP LOCKED` (a job runs on one node), a failure is retried with
 * exponential backoff, a job whose node died is failed by the lease (`expireInSeconds`) and retried
 * elsewhere, and a job that ran out of attempts stays `failed` with its error. This file adds the
 * loop that runs them, recurring jobs (once across nodes) and the staff's view.
 */

/** What a handler is told about the run. */
export interface RunningJob {
  id: string;
  kind: string;
  /** Attempts before this one. */
  retryCount: number;
  /** Whether a failure now is final (no attempt is left). */
  lastAttempt: boolean;
}

export interface JobKind<T extends object = Record<string, never>> {
  kind: string;
  /** A method, so a kind of any data is a JobKind<object> in the registry: each run gets its own kind's data. */
  run(data: T, job: RunningJob): Promise<unknown>;
  /** Retries after the first attempt, with `retryDelaySeconds` doubling each time (and jitter). */
  retryLimit: number;
  retryDelaySeconds: number;
  /** How long a run may hold the job: past it, the job is failed and retried elsewhere. */
  leaseSeconds: number;
  /** A recurring job: enqueued every `everyMs` by whichever node comes first. */
  everyMs?: number;
}

const kinds = new Map<string, JobKind<object>>();

/** Registers a kind of job (at module load, beside the code it runs). */
export function defineJob<T extends object>(definition: JobKind<T>) {
  kinds.set(definition.kind, definition);
  return definition;
}

/** Forgets a kind of job: this node no longer runs it or enqueues it. */
export function unregisterJob(kind: string) {
  kinds.delete(kind);
}

type Execute = Database["execute"];

/** pg-boss's SQL inside a drizzle transaction: `$n` placeholders become the statement's parameters. */
function inTransaction(tx: Tx): PgBoss.Db {
  return {
    async executeSql(text: string, values: unknown[] = []) {
      const chunks = [];
      let last = 0;
      for (const match of text.matchAll(/\$(\d+)/g)) {
        chunks.push(sql.raw(text.slice(last, match.index)));
        // node-postgres sends undefined as NULL; drizzle would leave the placeholder out.
        const value = values[Number(match[1]) - 1] ?? null;
        chunks.push(sql`${value && typeof value === "object" && !Array.isArray(value) && !(value instanceof Date) ? JSON.stringify(value) : value}`);
        last = match.index + match[0].length;
      }
      chunks.push(sql.raw(text.slice(last)));
      return { rows: await queryRows(sql.join(chunks), tx) } as never;
    },
  };
}

/** How long `runNow` waits for a job another node claimed first to finish (an SMTP attempt takes seconds at most). */
const RUN_NOW_WAIT_MS = 10_000;

export interface JobEngineOptions {
  database?: Database;
  /** How often a node looks for due jobs and recurring ones. */
  pollMs?: number;
  /** How often a started node runs pg-boss's maintenance (leases run out, old jobs archived). */
  maintenanceMs?: number;
  now?: () => Date;
}

export class JobEngine {
  readonly boss: PgBoss;
  private readonly database: Database;
  private readonly execute: Execute;
  private readonly pollMs: number;
  private readonly now: () => Date;
  private started: Promise<void> | undefined;
  private readonly queues = new Set<string>();
  private readonly creatingQueues = new Map<string, Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private maintenanceTimer: NodeJS.Timeout | undefined;
  private readonly maintenanceMs: number;
  /** The jobs running on this node, by id (runNow waits for one; stop waits for all). */
  private readonly running = new Map<string, Promise<void>>();
  private draining: Promise<number> | undefined;
  private again = false;
  private stopped = false;

  constructor(options: JobEngineOptions = {}) {
    this.database = options.database ?? appDatabase;
    this.execute = (text, values) => this.database.execute(text, values);
    this.pollMs = options.pollMs ?? 2000;
    this.maintenanceMs = options.maintenanceMs ?? 30_000;
    this.now = options.now ?? (() => new Date());
    this.boss = new PgBoss({
      db: { executeSql: (text: string, values?: unknown[]) => this.execute(text, values) as never },
      schema: JOB_SCHEMA,
      migrate: false,
      schedule: false,
      // Maintenance runs on the loop's own timer (start): a node that only stores jobs runs none.
      supervise: false,
      // A failed job stays on the jobs page for 30 days, with its error, until it is retried.
      archiveFailedAfterSeconds: 30 * 24 * 3600,
      archiveCompletedAfterSeconds: 24 * 3600,
    });
  }

  private ready() {
    this.started ??= this.boss.start().then(() => undefined);
    return this.started;
  }

  private queueOptions(kind: string) {
    const definition = kinds.get(kind);
    if (!definition) throw new Error(`Unknown job kind: ${kind}`);
    return {
      name: kind,
      retryLimit: definition.retryLimit,
      retryDelay: definition.retryDelaySeconds,
      retryBackoff: true,
      expireInSeconds: definition.leaseSeconds,
    };
  }

  private async queue(kind: string) {
    await this.ready();
    if (this.queues.has(kind)) return;
    let creating = this.creatingQueues.get(kind);
    if (!creating) {
      creating = this.createQueue(kind).finally(() => this.creatingQueues.delete(kind));
      this.creatingQueues.set(kind, creating);
    }
    await creating;
  }

  private async createQueue(kind: string) {
    for (let attempt = 1; ; attempt++) {
      try {
        // createQueue does nothing when it exists; updateQueue keeps a changed policy in step.
        await this.boss.createQueue(kind, this.queueOptions(kind));
        await this.boss.updateQueue(kind, this.queueOptions(kind));
        this.queues.add(kind);
        return;
      } catch (error) {
        // Nodes booting together may make the same new queue at once: PostgreSQL picks one to try again.
        if ((error as { code?: string }).code !== "40P01" || attempt === 5) throw error;
      }
    }
  }

  /** Stores a job (inside `tx` when given: it exists only if the transaction commits), due at once or at `startAfter`. Answers its id. */
  async enqueue(kind: string, data: object = {}, options: { tx?: Tx; startAfter?: Date } = {}): Promise<string> {
    const sendOptions = options.startAfter ? { startAfter: options.startAfter } : {};
    let id: string | null;
    if (options.tx) {
      // Everything through the transaction's own connection: PGlite has one, and a query beside
      // the open transaction would wait for it forever.
      const inTx = new PgBoss({ db: inTransaction(options.tx), schema: JOB_SCHEMA, migrate: false, schedule: false, supervise: false });
      if (!this.queues.has(kind)) await inTx.createQueue(kind, this.queueOptions(kind));
      id = await inTx.send(kind, data, sendOptions);
    } else {
      await this.queue(kind);
      id = await this.boss.send(kind, data, sendOptions);
    }
    if (!id) throw new Error(`The job engine did not store a ${kind} job`);
    return id;
  }

  /**
   * Runs one stored job here and now, if no node has claimed it yet (a reset link goes out while the
   * person waits, not at the next poll). A job a loop claimed first is waited for instead, up to
   * RUN_NOW_WAIT_MS: the caller still answers after it ran. Answers whether this call ran it.
   */
  async runNow(kind: string, id: string): Promise<boolean> {
    await this.queue(kind);
    const { rows } = await this.execute(
      `UPDATE ${JOB_SCHEMA}.job SET state = 'active', started_on = now(),
         retry_count = CASE WHEN started_on IS NOT NULL THEN retry_count + 1 ELSE retry_count END
       WHERE name = $1 AND id = $2 AND state < 'active'
       RETURNING id, name, data, retry_count AS "retryCount", retry_limit AS "retryLimit"`,
      [kind, id],
    );
    // Raw SQL's rows are untyped; the RETURNING list above names these columns.
    const [job] = rows as ClaimedJob[];
    if (!job) {
      await this.whileRunning(kind, id);
      return false;
    }
    await this.run(job);
    return true;
  }

  /** Waits while a job claimed elsewhere runs: a run of this node's by its promise, another node's by its row (at most RUN_NOW_WAIT_MS). */
  private async whileRunning(kind: string, id: string) {
    const here = this.running.get(id);
    if (here) return void (await here.catch(() => undefined));
    const until = Date.now() + RUN_NOW_WAIT_MS;
    while (Date.now() < until && !this.stopped) {
      const { rows } = await this.execute(`SELECT state FROM ${JOB_SCHEMA}.job WHERE name = $1 AND id = $2`, [kind, id]);
      if ((rows[0] as { state?: string } | undefined)?.state !== "active") return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Runs a claimed job, known by its id while it runs. */
  private run(job: ClaimedJob) {
    const running = this.handle(job).finally(() => this.running.delete(job.id));
    this.running.set(job.id, running);
    return running;
  }

  /** Claims and runs every job due now, kind by kind, a batch at a time. Answers how many ran. */
  async runDue(): Promise<number> {
    let ran = 0;
    for (const kind of kinds.keys()) await this.queue(kind);
    for (const kind of await this.kindsWithDueJobs([...kinds.keys()])) {
      for (let round = 0; round < 20 && !this.stopped; round++) {
        const jobs = (await this.boss.fetch<object>(kind, { batchSize: 10, includeMetadata: true })) ?? [];
        await Promise.all(jobs.map((job) => this.run({ id: job.id, name: kind, data: job.data, retryCount: job.retryCount, retryLimit: job.retryLimit })));
        ran += jobs.length;
        if (jobs.length < 10) break;
      }
    }
    return ran;
  }

  /**
   * Of `names`, the kinds with a job waiting to be claimed now: one statement, so an idle loop asks
   * once a round rather than once a kind (each kind's jobs are their own partition, each probed once).
   */
  private async kindsWithDueJobs(names: string[]): Promise<string[]> {
    if (names.length === 0) return [];
    const list = names.map((_, i) => `($${i + 1}::text)`).join(", ");
    const { rows } = await this.execute(
      `SELECT k.name FROM (VALUES ${list}) AS k(name)
       WHERE EXISTS (SELECT 1 FROM ${JOB_SCHEMA}.job j WHERE j.name = k.name AND j.state < 'active' AND j.start_after < now())`,
      names,
    );
    return (rows as { name: string }[]).map((row) => row.name);
  }

  /**
   * Of the recurring kinds, those whose time has come, in one statement that first stores the
   * schedule row of a kind that has none (due at once). Two nodes may store the same rows at once:
   * each statement inserts them in the same order, and outside a transaction, so neither deadlocks.
   */
  private async dueSchedules(definitions: JobKind<object>[], now: Date): Promise<Set<string>> {
    const names = definitions.map((definition) => definition.kind);
    const list = names.map((_, i) => `$${i + 2}`).join(", ");
    const { rows } = await this.execute(
      `WITH made AS (
         INSERT INTO "job_schedules" (kind, next_run_at) VALUES ${names.map((_, i) => `($${i + 2}, $1::timestamptz)`).join(", ")}
         ON CONFLICT DO NOTHING RETURNING kind)
       SELECT kind FROM "job_schedules" WHERE kind IN (${list}) AND next_run_at <= $1::timestamptz
       UNION SELECT kind FROM made`,
      [now.toISOString(), ...names],
    );
    return new Set((rows as { kind: string }[]).map((row) => row.kind));
  }

  /** Enqueues each recurring job whose time has come; a row lock makes one node the one that does. */
  async enqueueRecurring(now = this.now()): Promise<string[]> {
    const enqueued: string[] = [];
    const recurring = [...kinds.values()].filter((definition) => definition.everyMs);
    if (recurring.length === 0) return enqueued;
    const due = await this.dueSchedules(recurring, now);
    for (const definition of recurring) {
      await this.queue(definition.kind);
      if (!due.has(definition.kind)) continue;
      const claimed = await this.database.db.transaction(async (tx) => {
        const [row] = await tx
          .update(schema.jobSchedules)
          .set({ nextRunAt: new Date(now.getTime() + definition.everyMs!) })
          .where(and(eq(schema.jobSchedules.kind, definition.kind), lte(schema.jobSchedules.nextRunAt, now)))
          .returning();
        if (row) await this.enqueue(definition.kind, {}, { tx });
        return Boolean(row);
      });
      if (claimed) enqueued.push(definition.kind);
    }
    return enqueued;
  }

  /** pg-boss's maintenance: fails jobs whose lease ran out (so they are retried), archives old ones. */
  async maintain() {
    await this.ready();
    await this.boss.maintain();
  }

  /** One round of the loop: recurring jobs due, then every due job. */
  async poll(): Promise<number> {
    if (this.draining) {
      this.again = true;
      return this.draining;
    }
    this.draining = (async () => {
      let ran = 0;
      do {
        this.again = false;
        await this.enqueueRecurring();
        ran += await this.runDue();
      } while (this.again && !this.stopped);
      return ran;
    })().finally(() => (this.draining = undefined));
    return this.draining;
  }

  /** Starts this node's loop: every `pollMs`, and at once on `kick`. */
  async start() {
    await this.ready();
    this.stopped = false;
    const tick = () => {
      this.timer = setTimeout(() => {
        void this.poll()
          .catch((error: unknown) => logger.warn({ err: error }, "the job loop failed: trying again"))
          .finally(() => !this.stopped && tick());
      }, this.pollMs);
      this.timer.unref();
    };
    tick();
    // Every node may run it: expiring a lease is one guarded statement, and a second run finds nothing.
    this.maintenanceTimer = setInterval(
      () => void this.maintain().catch((error: unknown) => logger.warn({ err: error }, "job maintenance failed")),
      this.maintenanceMs,
    );
    this.maintenanceTimer.unref();
  }

  /** Looks for due jobs now rather than at the next poll (a job was just stored). */
  kick() {
    if (!this.timer || this.stopped) return;
    void this.poll().catch((error: unknown) => logger.warn({ err: error }, "the job loop failed: trying again"));
  }

  /** Stops the loop and waits for the jobs running here; a job cut short is retried by its lease. */
  async stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    clearInterval(this.maintenanceTimer);
    this.timer = undefined;
    await this.draining?.catch(() => 0);
    while (this.running.size > 0) await Promise.allSettled([...this.running.values()]);
    if (this.started) await this.boss.stop({ graceful: false, close: false });
    this.started = undefined;
    this.queues.clear();
  }

  /** A failed job queued again with one more attempt. Answers its kind, or null when no failed job has that id. */
  async retryFailed(id: string): Promise<string | null> {
    const { rows } = await this.execute(`SELECT name FROM ${JOB_SCHEMA}.job WHERE id = $1 AND state = 'failed'`, [id]);
    const kind = rows[0]?.name as string | undefined;
    if (!kind) return null;
    await this.queue(kind);
    await this.boss.retry(kind, id);
    this.kick();
    return kind;
  }

  private async handle(job: ClaimedJob) {
    const definition = kinds.get(job.name);
    const running: RunningJob = { id: job.id, kind: job.name, retryCount: job.retryCount, lastAttempt: job.retryCount >= job.retryLimit };
    try {
      if (!definition) throw new Error(`Unknown job kind: ${job.name}`);
      await definition.run(job.data ?? {}, running);
      await this.boss.complete(job.name, job.id);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      logger.warn({ err: error, job: job.id, kind: job.name, attempt: job.retryCount + 1, final: running.lastAttempt }, "a background job failed");
      await this.boss.fail(job.name, job.id, { message });
    }
  }
}

/** A type, not an interface: raw rows (records of unknown columns) may be taken as it. */
type ClaimedJob = {
  id: string;
  name: string;
  data: object | null;
  retryCount: number;
  retryLimit: number;
};

/**
 * Jobs of `kind` written by another statement (a data-modifying CTE in it): one for each row of
 * `rows`, a query with a `data` jsonb column, due at once, with the queue's retries and lease as
 * pg-boss's `send` gives them. They exist exactly when that statement commits. The queue must
 * exist already (every node's loop makes each kind's queue at start): where it does not, no job is
 * written, and the caller, which counts them, enqueues them the usual way.
 */
export function jobRowsOf(kind: string, rows: SQL): SQL {
  const job = sql.raw(`${JOB_SCHEMA}.job`);
  const queue = sql.raw(`${JOB_SCHEMA}.queue`);
  return sql`insert into ${job} (id, name, data, priority, start_after, dead_letter, expire_in, keep_until, retry_limit, retry_delay, retry_backoff, policy)
    select gen_random_uuid(), q.name, r.data, 0, now(), q.dead_letter,
      coalesce(q.expire_seconds * interval '1s', interval '15 minutes'),
      now() + cast(coalesce((q.retention_minutes * 60)::text, '14 days') as interval),
      coalesce(q.retry_limit, 2),
      case when coalesce(q.retry_backoff, false) then greatest(q.retry_delay, 1) else coalesce(q.retry_delay, 0) end,
      coalesce(q.retry_backoff, false), q.policy
    from (${rows}) as r join ${queue} as q on q.name = ${kind}
    returning id`;
}

/** This process's engine: started by boot (app/web/boot.server.ts), used by every job's producer. */
export const jobs = new JobEngine();

export const JOB_STATES = ["created", "retry", "active", "completed", "failed", "cancelled"] as const;
export type JobState = (typeof JOB_STATES)[number];

/** How many jobs there are of each kind in each state (the jobs page, metrics). */
export async function jobCounts(database: Database = appDatabase): Promise<{ kind: string; state: JobState; count: number }[]> {
  const { rows } = await database.execute(
    `SELECT name AS kind, state::text AS state, count(*)::int AS count FROM ${JOB_SCHEMA}.job
     WHERE name NOT LIKE '\\_\\_pgboss%' GROUP BY name, state ORDER BY name, state`,
  );
  return rows as { kind: string; state: JobState; count: number }[];
}

/** A type, not an interface: raw rows (records of unknown columns) may be taken as it. */
export type ListedJob = {
  id: string;
  kind: string;
  state: JobState;
  attempts: number;
  createdAt: Date;
  startedAt: Date | null;
  nextAttemptAt: Date;
  error: string | null;
};

/** The latest jobs in one state, newest first (the jobs page). */
export async function listJobs(state: JobState, limit = 50, database: Database = appDatabase): Promise<ListedJob[]> {
  const { rows } = await database.execute(
    `SELECT id, name AS kind, state::text AS state, retry_count + CASE WHEN started_on IS NULL THEN 0 ELSE 1 END AS attempts,
       created_on AS "createdAt", started_on AS "startedAt", start_after AS "nextAttemptAt", output->>'message' AS error
     FROM ${JOB_SCHEMA}.job WHERE state = $1::${JOB_SCHEMA}.job_state AND name NOT LIKE '\\_\\_pgboss%'
     ORDER BY created_on DESC LIMIT $2`,
    [state, limit],
  );
  // Raw SQL's rows are untyped; the select list above names these columns.
  return (rows as ListedJob[]).map((row) => ({
    ...row,
    createdAt: new Date(row.createdAt),
    startedAt: row.startedAt ? new Date(row.startedAt) : null,
    nextAttemptAt: new Date(row.nextAttemptAt),
  }));
}

/** A failed job queued again with one more attempt. Answers its kind, or null when no failed job has that id. */
export function retryFailedJob(id: string) {
  return jobs.retryFailed(id);
}
