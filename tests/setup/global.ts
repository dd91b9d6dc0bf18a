import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import postgres from "postgres";
import type { TestProject } from "vitest/node";

import { connectPostgres, wrapPglite } from "../../db/client";
import { TEMPLATE_DATABASE } from "./database";

/**
 * Migrate once per run: a PGlite dump that every test file loads (well under a second), or a
 * PostgreSQL template database that every test file copies with CREATE DATABASE … TEMPLATE.
 */
export default async function setup(project: TestProject) {
  const url = project.name === "services" ? project.config.env?.DATABASE_URL : undefined;
  if (url) {
    const admin = postgres(url, { max: 1, onnotice: () => {} });
    await admin.unsafe(`drop database if exists ${TEMPLATE_DATABASE} with (force)`);
    await admin.unsafe(`create database ${TEMPLATE_DATABASE}`);
    const templateUrl = new URL(url);
    templateUrl.pathname = `/${TEMPLATE_DATABASE}`;
    const template = connectPostgres(templateUrl.toString(), { max: 1 });
    await template.migrate();
    await template.close();
    project.provide("databaseTemplate", TEMPLATE_DATABASE);
    return async () => {
      await admin.unsafe(`drop database if exists ${TEMPLATE_DATABASE} with (force)`);
      await admin.end();
    };
  }
  const pg = new PGlite();
  const database = wrapPglite(pg);
  await database.migrate();
  const dump = await pg.dumpDataDir("none");
  await database.close();
  const file = path.join(await fs.mkdtemp(path.join(os.tmpdir(), "brandlift-pglite-")), "template.tar");
  await fs.writeFile(file, Buffer.from(await dump.arrayBuffer()));
  project.provide("databaseTemplate", file);
  return () => fs.rm(path.dirname(file), { recursive: true, force: true });
}

declare module "vitest" {
  export interface ProvidedContext {
    databaseTemplate: string;
  }
}
