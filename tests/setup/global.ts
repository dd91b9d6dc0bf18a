import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import postgres from "postgres";
import type { TestProject } from "vitest/node";

import { connectPostgres, wrapPglite } from "../../db/client";
import { compileWasmForShortLives, TEMPLATE_DATABASE } from "./database";

/**
 * Migrate once per run: a PGlite dump that every test file loads (well under a second), one for
 * every project of the run, or a PostgreSQL template database that every test file copies with
 * CREATE DATABASE … TEMPLATE.
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
  return async () => {
    if (--shared.users > 0) return;
    delete (globalThis as Record<symbol, unknown>)[PGLITE_TEMPLATE];
    await fs.rm(path.dirname(await shared.file), { recursive: true, force: true });
  };
}

interface SharedTemplate {
  /** The PGlite dump's path, or the PostgreSQL template database's name. */
  file: Promise<string>;
  /** Projects of this run that still use it: the last one's teardown removes it. */
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

async function makePgliteTemplate(): Promise<string> {
  compileWasmForShortLives();
  const pg = new PGlite();
  const database = wrapPglite(pg);
  await database.migrate();
  const dump = await pg.dumpDataDir("none");
  await database.close();
  const file = path.join(await fs.mkdtemp(path.join(os.tmpdir(), "brandlift-pglite-")), "template.tar");
  await fs.writeFile(file, Buffer.from(await dump.arrayBuffer()));
  return file;
}

declare module "vitest" {
  export interface ProvidedContext {
    databaseTemplate: string;
  }
}
