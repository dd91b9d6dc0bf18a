import crypto from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import postgres from "postgres";
import type { TestProject } from "vitest/node";

import { connectPostgres, wrapPglite } from "../../db/client";
import { compileWasmForShortLives, TEMPLATE_DATABASE } from "./database";

/**
 * Migrate at most once per run: a PGlite dump that every test file loads (well under a second), one
 * for every project of the run and kept for the next run of the same sources, or a PostgreSQL
 * template database that every test file copies with CREATE DATABASE … TEMPLATE.
 */
export default async function setup(project: TestProject) {
  const url = project.config.env?.DATABASE_URL;
  if (url) {
    const shared = postgresTemplate(url);
    shared.users++;
    project.provide("databaseTemplate", await shared.file);
    return async () => {
      if (--shared.users > 0) return;
      delete (globalThis as Record<symbol, unknown>)[POSTGRES_TEMPLATE];
      const admin = postgres(url, { max: 1, onnotice: () => {} });
      await admin.unsafe(`drop database if exists ${TEMPLATE_DATABASE} with (force)`);
      await admin.end();
    };
  }
  const shared = pgliteTemplate();
  shared.users++;
  project.provide("databaseTemplate", await shared.file);
  return () => {
    // The dump stays for the next run (makePgliteTemplate).
    if (--shared.users === 0) delete (globalThis as Record<symbol, unknown>)[PGLITE_TEMPLATE];
  };
}

interface SharedTemplate {
  /** The PGlite dump's path, or the PostgreSQL template database's name. */
  file: Promise<string>;
  /** Projects of this run that still use it: the last one's teardown removes the PostgreSQL one. */
  users: number;
}
const PGLITE_TEMPLATE = Symbol.for("brandlift.pglite-template");
const POSTGRES_TEMPLATE = Symbol.for("brandlift.postgres-template");

/** The migrated PostgreSQL template database, made once per run however many projects copy it. */
function postgresTemplate(url: string): SharedTemplate {
  const global = globalThis as Record<symbol, unknown>;
  let shared = global[POSTGRES_TEMPLATE] as SharedTemplate | undefined;
  if (!shared) {
    shared = { file: makePostgresTemplate(url), users: 0 };
    global[POSTGRES_TEMPLATE] = shared;
  }
  return shared;
}

async function makePostgresTemplate(url: string): Promise<string> {
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists ${TEMPLATE_DATABASE} with (force)`);
  await admin.unsafe(`create database ${TEMPLATE_DATABASE}`);
  await admin.end();
  const templateUrl = new URL(url);
  templateUrl.pathname = `/${TEMPLATE_DATABASE}`;
  const template = connectPostgres(templateUrl.toString(), { max: 1 });
  await template.migrate();
  await template.close();
  return TEMPLATE_DATABASE;
}

/**
 * The migrated PGlite dump, made once per run (in the process that runs the projects' global setups)
 * however many projects use it: each project runs its global setup, and PGlite's initdb takes seconds.
 */
function pgliteTemplate(): SharedTemplate {
  const global = globalThis as Record<symbol, unknown>;
  let shared = global[PGLITE_TEMPLATE] as SharedTemplate | undefined;
  if (!shared) {
    shared = { file: makePgliteTemplate(), users: 0 };
    global[PGLITE_TEMPLATE] = shared;
  }
  return shared;
}

/**
 * The dump is kept in the temporary folder between runs, named by a digest of everything that
 * makes it: the installed packages (PGlite, drizzle's migrator, pg-boss: the lock file) and their
 * patches, the migrations, and the code that runs them. PGlite's initdb alone takes about 4 CPU-s,
 * on one core before any test can start; a run whose sources make the same database loads the
 * dump the last one wrote (decision 315). It is written under another name and renamed, so runs
 * side by side never read half a dump.
 */
async function makePgliteTemplate(): Promise<string> {
  const folder = os.tmpdir();
  const name = `${TEMPLATE_PREFIX}${await templateDigest()}.tar`;
  const file = path.join(folder, name);
  const now = new Date();
  try {
    // Marked as used, so that the clean-up below leaves it to runs that still use it.
    await fs.utimes(file, now, now);
    return file;
  } catch {
    // Not made yet by these sources.
  }
  compileWasmForShortLives();
  const pg = new PGlite();
  const database = wrapPglite(pg);
  await database.migrate();
  const dump = await pg.dumpDataDir("none");
  await database.close();
  const partial = `${file}.${process.pid}.partial`;
  await fs.writeFile(partial, Buffer.from(await dump.arrayBuffer()));
  await fs.rename(partial, file);
  // Dumps of other sources (about 45 MB each) go once no run has used them for a day.
  for (const other of await fs.readdir(folder)) {
    if (!other.startsWith(TEMPLATE_PREFIX) || other === name) continue;
    const stat = await fs.stat(path.join(folder, other)).catch(() => null);
    if (stat && now.getTime() - stat.mtimeMs > 24 * 60 * 60 * 1000) await fs.rm(path.join(folder, other), { force: true });
  }
  return file;
}

const TEMPLATE_PREFIX = "brandlift-pglite-template-";
const ROOT = path.resolve(import.meta.dirname, "../..");

/** A digest of the files that decide what the migrated template holds. */
async function templateDigest(): Promise<string> {
  const inputs = ["package-lock.json", "db/client.ts", "db/job-queue.ts", "tests/setup/global.ts"];
  for (const folder of ["db/migrations", "patches"]) {
    const entries = await fs.readdir(path.join(ROOT, folder), { recursive: true, withFileTypes: true });
    for (const entry of entries) if (entry.isFile()) inputs.push(path.relative(ROOT, path.join(entry.parentPath, entry.name)));
  }
  const hash = crypto.createHash("sha256");
  for (const input of inputs.sort())
    hash
      .update(`${input}\0`)
      .update(await fs.readFile(path.join(ROOT, input)))
      .update("\0");
  return hash.digest("hex").slice(0, 24);
}

declare module "vitest" {
  export interface ProvidedContext {
    databaseTemplate: string;
  }
}
