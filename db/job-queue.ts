import PgBoss from "pg-boss";

/** The schema pg-boss keeps its jobs, queues and archive in (docs/decisions/270). */
export const JOB_SCHEMA = "pgboss";

type Execute = (text: string, values?: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;

/**
 * Creates pg-boss's schema, or migrates it to the installed version, through the app's own
 * connection: part of `migrate`, so a node (and the test template) starts with it in place. pg-boss
 * takes an advisory lock while it does this, so nodes booting together are safe.
 */
export async function migrateJobQueue(execute: Execute) {
  const boss = new PgBoss({ db: { executeSql: execute }, schema: JOB_SCHEMA, migrate: true, supervise: false, schedule: false });
  await boss.start();
  await boss.stop({ graceful: false, close: false });
}
