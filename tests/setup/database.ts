import crypto from "node:crypto";
import fs from "node:fs/promises";
import v8 from "node:v8";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import postgres from "postgres";

import { connectPostgres, wrapPglite, type Database } from "../../db/client";

// One per run (pid): two runs on one server, e.g. two checkouts, must not drop each other's template.
export const TEMPLATE_DATABASE = `brandlift_test_template_${process.pid}`;

/**
 * PGlite's WebAssembly compiled by V8's baseline compiler only, in a test process. By default V8 also
 * recompiles PGlite's hot functions with its optimizing compiler on background threads: in a process
 * that lives for a few test files that work costs more than it ever gives back (a PGlite started and
 * asked 600 queries: 1.7 CPU-s by default, 0.8 with the baseline only, and its queries no slower),
 * and `npm test` starts about ten such processes on two cores. Decision 256. Call it before the
 * first PGlite of the process is created.
 */
export function compileWasmForShortLives() {
  v8.setFlagsFromString("--liftoff-only");
}

/** A database of one's own for a test file, already migrated. */
export async function createTestDatabase(template: string): Promise<Database> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    compileWasmForShortLives();
    const blob = new Blob([await fs.readFile(template)]);
    // Its queries run as prepared statements, as the app's embedded database's do (db/pglite-prepared.ts).
    return wrapPglite(await PGlite.create({ loadDataDir: blob }));
  }
  const name = `brandlift_test_${crypto.randomBytes(6).toString("hex")}`;
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name} template ${template}`);
  await admin.end();
  const fileUrl = new URL(url);
  fileUrl.pathname = `/${name}`;
  const database = connectPostgres(fileUrl.toString(), { max: 5 });
  const close = database.close.bind(database);
  database.close = async () => {
    await close();
    const dropper = postgres(url, { max: 1, onnotice: () => {} });
    await dropper.unsafe(`drop database if exists ${name} with (force)`);
    await dropper.end();
  };
  return database;
}

/**
 * Back to the migrated template: every table of the app emptied (and every job of pg-boss) (the template's tables are empty) and
 * every sequence restarted, in one statement. Rows are deleted with triggers off for the statement
 * (foreign keys, and the audit log's refusal to delete), not truncated: a truncate makes new files for every table it names, which in PGlite took
 * 50–90 ms even with the tables empty (a delete: 5–40 ms, measured on 44 tables).
 */
export async function resetTestDatabase(database: Database): Promise<void> {
  await database.db.execute(
    sql.raw(`do $reset$
declare
  name text;
begin
  perform set_config('session_replication_role', 'replica', true);
  for name in select format('%I.%I', schemaname, tablename) from pg_tables where schemaname = 'public' loop
    execute 'delete from ' || name;
  end loop;
  for name in select format('%I.%I', schemaname, sequencename) from pg_sequences where schemaname = 'public' loop
    execute format('alter sequence %s restart', name);
  end loop;
  -- The job engine's jobs (its queues stay, as the template has them once a file made them).
  delete from pgboss.job;
  delete from pgboss.archive;
end
$reset$`),
  );
}
