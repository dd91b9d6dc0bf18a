import type { SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";

import { database, db } from "./db.server";

const dialect = new PgDialect();

/**
 * A query's rows in batches from a server-side cursor, so a large result (a CSV export) never sits
 * in memory: PostgreSQL lends a connection and a portal for as long as the consumer reads. Null on
 * the embedded database, which has one connection and no cursor to lend across requests: the
 * caller pages by key there instead (docs/decisions/093).
 */
export function cursorBatches<T>(query: SQL, batchSize: number): AsyncIterable<T[]> | null {
  if (!database.cursor) return null;
  const { sql: text, params } = dialect.sqlToQuery(query);
  // Raw SQL's rows are untyped: the caller names the shape its query selects.
  return database.cursor(text, params, batchSize) as AsyncIterable<T[]>;
}

/** What runs a raw statement: the database, or a transaction of it. */
interface Executor {
  execute(query: SQL): PromiseLike<unknown>;
}

/** PGlite answers { rows }, postgres.js an array: the rows either way, from the database or a transaction. */
export async function queryRows<T>(query: SQL, executor: Executor = db): Promise<T[]> {
  const result = (await executor.execute(query)) as { rows?: T[] } | T[];
  return Array.isArray(result) ? result : (result.rows ?? []);
}
