import path from "node:path";
import { remember } from "@epic-web/remember";
import { connectDatabase, type Database } from "#db/client";
import { env } from "./env.server";

export type { Db, Tx } from "#db/client";
export * as schema from "#db/schema";

/**
 * The one database handle of this process. Tests register their own (a cloned PGlite or a
 * fresh PostgreSQL database) under the same key before the app is imported.
 */
export const database: Database = remember("database", () =>
  connectDatabase({ url: env.databaseUrl, dataDir: path.join(env.dataDir, "pglite") }),
);

export const db = database.db;
