import fs from "node:fs";
import path from "node:path";
import { PGlite, type Transaction } from "@electric-sql/pglite";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";

import { migrateJobQueue } from "./job-queue";
import { prepareStatements } from "./pglite-prepared";
import * as schema from "./schema";
import { changedData, statementKind } from "./writes";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export interface Database {
  db: Db;
  kind: "pglite" | "postgres";
  migrate(): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
  /**
   * One SQL text with $n parameters on this database's own connection, for a library that brings its
   * own SQL (the job engine, pg-boss: docs/decisions/270). Without values the text may hold several
   * statements.
   */
  execute(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  /**
   * postgres.js only: calls `listener` with each call the app's queries make on the pool (a
   * statement; a transaction once, at its begin) until the returned function is called. A test
   * counts round trips with it; PGlite's client is a plain object whose methods a test can wrap.
   */
  watchCalls?(listener: (call: DriverCall) => void): () => void;
  /**
   * Calls `listener` after every statement or transaction of this process that changed data, once it
   * is committed (a transaction at its end, whatever it did inside), until the returned function is
   * called. Judged by db/writes.ts: every doubt counts as a change.
   */
  watchWrites(listener: () => void): () => void;
  /**
   * postgres.js only: a statement's rows in batches from a server-side cursor (PGlite has one
   * connection, none to lend for as long as a reader takes).
   */
  cursor?(text: string, values: unknown[], batchSize: number): AsyncIterable<Record<string, unknown>[]>;
  /**
   * postgres.js only: opens every connection of the pool now (docs/decisions/316), so that no
   * request pays for one later: a new connection costs a server process, its sign-in, the driver's
   * read of the array types and a first parse of each statement.
   */
  warm?(): Promise<void>;
}

/** A call on postgres.js's pool: a statement's text, or a transaction's begin (its options, if any). */
export interface DriverCall {
  method: "unsafe" | "begin";
  text: string;
}

export const migrationsFolder = path.resolve(process.cwd(), "db/migrations");
const MIGRATION_LOCK = 72_431_905;

export function connectPostgres(url: string, options: { max?: number } = {}): Database {
  const max = options.max ?? 10;
  const client = postgres(url, {
    max,
    onnotice: () => {},
    connect_timeout: 10,
    // postgres.js waits up to 20 s (3^n / 100 s) between reconnects, and queries queue behind the
    // wait: a database restart would hang requests and serve again only seconds after it is back.
    // At most 0.5 s: requests fail fast with 503 and the node serves as soon as it answers.
    backoff: (retries: number) => Math.min(0.05 * retries, 0.5),
  });
  const calls = listeners<DriverCall>();
  const writes = listeners<void>();
  const pool = preparing(client, calls.tell, () => writes.tell());
  // drizzle types each driver's database with its own result kind: none is assignable to the shared Db.
  const db = drizzlePostgres({ client: pool, schema }) as unknown as Db;
  const execute: Database["execute"] = async (text, values) => {
    // As node-postgres does, which such libraries are written for: an object parameter is JSON, undefined is NULL.
    const params = (values ?? []).map((value) =>
      value && typeof value === "object" && !Array.isArray(value) && !(value instanceof Date) && !Buffer.isBuffer(value)
        ? JSON.stringify(value)
        : (value ?? null),
    );
    const kind = statementKind(text);
    if (params.length === 0) {
      // Several statements, perhaps their own BEGIN … COMMIT (pg-boss's migration): one connection of
      // the pool for them all, which postgres.js insists on for a transaction.
      const connection = await client.reserve();
      try {
        const rows = await connection.unsafe(text);
        if (changedData(kind, rows.count)) writes.tell();
        return { rows: [...rows] };
      } catch (error) {
        // A statement failed inside the text's own BEGIN: end that transaction before the connection
        // goes back to the pool (else every later query on it fails with "transaction is aborted").
        await connection.unsafe("rollback").catch(() => {});
        throw error;
      } finally {
        connection.release();
      }
    }
    const rows = await client.unsafe(text, params as postgres.ParameterOrJSON<never>[]);
    if (changedData(kind, rows.count)) writes.tell();
    return { rows: [...rows] };
  };
  return {
    db,
    kind: "postgres",
    watchWrites: writes.watch,
    async migrate() {
      // Several nodes may boot at once: one migrates, the others wait on the advisory lock.
      const lockClient = postgres(url, { max: 1, onnotice: () => {}, connect_timeout: 10 });
      try {
        await lockClient`select pg_advisory_lock(${MIGRATION_LOCK})`;
        await migratePostgres(drizzlePostgres({ client: lockClient }), { migrationsFolder });
        await lockClient`select pg_advisory_unlock(${MIGRATION_LOCK})`;
      } finally {
        await lockClient.end({ timeout: 5 });
      }
      await migrateJobQueue(execute);
    },
    async ping() {
      await client`select 1`;
    },
    async close() {
      await client.end({ timeout: 5 });
    },
    execute,
    cursor: (text, values, batchSize) => pool.unsafe(text, values as postgres.ParameterOrJSON<never>[]).cursor(batchSize),
    watchCalls: calls.watch,
    async warm() {
      // The pool opens a connection for a query only when none is idle: `max` queries at once open
      // every one it has not opened yet (one already open takes one of them).
      await Promise.all(Array.from({ length: max }, () => client`select 1`));
    },
  };
}

/** At most this many statement texts are prepared per process; later new texts run unprepared. */
const PREPARED_TEXTS_MAX = 300;

/**
 * The pool with every parameterised query of drizzle's run as a prepared statement (postgres.js
 * keeps one per text and connection). drizzle prepares only the queries given a name, so every
 * other statement was parsed and planned again on each call: for a chat message's statement that
 * was 0.6 ms of parsing and 1 ms of binding in PostgreSQL against 2 ms of running it. The texts are
 * few (the query builder's shapes; an IN list makes one per length), and a cap keeps a stream of
 * new texts (a bug, an unbounded IN list) from filling every connection's statement cache.
 * postgres.js re-prepares a statement whose plan a migration invalidated.
 */
function preparing(client: postgres.Sql, notify: (call: DriverCall) => void, changed: () => void): postgres.Sql {
  const prepared = new Set<string>();
  // `pool`: calls on the pool itself are announced to the watchers; a transaction's statements are
  // part of its begin. `wrote`: what a statement that changed data calls (a transaction marks itself).
  const wrap = <T extends postgres.Sql | postgres.TransactionSql>(target: T, pool: boolean, wrote: () => void): T => {
    const unsafe = target.unsafe.bind(target);
    const preparingUnsafe = (text: string, params?: postgres.ParameterOrJSON<never>[], options?: postgres.UnsafeQueryOptions) => {
      if (pool) notify({ method: "unsafe", text });
      const parameterised = Array.isArray(params) && params.length > 0;
      const prepare = parameterised && (prepared.has(text) || (prepared.size < PREPARED_TEXTS_MAX && !!prepared.add(text)));
      const query = unsafe(text, params, prepare ? { ...options, prepare: true } : options);
      const kind = statementKind(text);
      if (kind !== "read") {
        // The driver settles a query through its own resolve: seen there, before anyone awaiting it
        // goes on, without starting the query early (awaiting it would).
        const settle = query as unknown as { resolve: (result: { count?: number | null }) => void };
        const resolve = settle.resolve;
        settle.resolve = (result) => {
          if (changedData(kind, result?.count)) wrote();
          resolve(result);
        };
      }
      return query;
    };
    return new Proxy(target, {
      get(object, key, receiver) {
        if (key === "unsafe") return preparingUnsafe;
        // A transaction's queries (drizzle runs them on the connection begin() hands over) are prepared alike.
        if (key === "begin") {
          return (...args: unknown[]) => {
            const options = args.slice(0, -1) as [string];
            if (pool) notify({ method: "begin", text: args.length > 1 ? String(args[0]) : "" });
            const body = args.at(-1) as (tx: postgres.TransactionSql) => unknown;
            let dirty = false;
            const committed = (object as postgres.Sql).begin(...options, (tx) => body(wrap(tx, false, () => (dirty = true))) as never);
            // Told once it committed. Savepoints roll back inside; whether anything stayed is not known: a transaction that wrote counts.
            return committed.then((result) => (dirty && wrote(), result));
          };
        }
        return Reflect.get(object, key, receiver) as unknown;
      },
    });
  };
  return wrap(client, true, changed);
}

/** Listeners of one kind of news (Database.watchCalls, watchWrites), and the call that tells them. */
function listeners<T>() {
  const set = new Set<(news: T) => void>();
  return {
    tell(news: T) {
      for (const listener of set) listener(news);
    },
    watch(listener: (news: T) => void) {
      set.add(listener);
      return () => void set.delete(listener);
    },
  };
}

/**
 * PGlite's client with its calls observed for changed data: `query`, `exec` and `transaction` are
 * replaced on the instance (a test's own wrappers of them still see every call).
 */
function observePglite(client: PGlite, changed: () => void): PGlite {
  const observe = (target: Pick<PGlite, "query" | "exec">, wrote: () => void) => {
    const query = target.query.bind(target);
    const exec = target.exec.bind(target);
    target.query = ((text: string, ...rest: unknown[]) => {
      const kind = statementKind(text);
      const result = (query as (text: string, ...rest: unknown[]) => Promise<{ affectedRows?: number }>)(text, ...rest);
      return kind === "read" ? result : result.then((out) => (changedData(kind, out.affectedRows) && wrote(), out));
    }) as PGlite["query"];
    target.exec = ((text: string, ...rest: unknown[]) => {
      const kind = statementKind(text);
      const result = (exec as (text: string, ...rest: unknown[]) => Promise<unknown>)(text, ...rest);
      return kind === "read" ? result : result.then((out) => (wrote(), out));
    }) as PGlite["exec"];
  };
  observe(client, changed);
  const transaction = client.transaction.bind(client);
  client.transaction = (async (body: (tx: Transaction) => Promise<unknown>) => {
    let dirty = false;
    const result = await transaction((tx) => {
      observe(tx, () => (dirty = true));
      return body(tx);
    });
    if (dirty) changed();
    return result;
  }) as PGlite["transaction"];
  return client;
}

/**
 * A PGlite instance as the app's Database. Its queries run as prepared statements
 * (db/pglite-prepared.ts), and the change watcher wraps that path, so it sees every call.
 */
export function wrapPglite(pglite: PGlite): Database {
  const writes = listeners<void>();
  const client = observePglite(prepareStatements(pglite), () => writes.tell());
  // As in connectPostgres: PGlite's drizzle database is the shared Db but for its result kind.
  const db = drizzlePglite({ client, schema }) as unknown as Db;
  const execute: Database["execute"] = async (text, values) => {
    if (values?.length) return client.query<Record<string, unknown>>(text, values);
    const results = await client.exec(text);
    return { rows: results.at(-1)?.rows ?? [] };
  };
  return {
    db,
    kind: "pglite",
    watchWrites: writes.watch,
    async migrate() {
      await migratePglite(drizzlePglite({ client }), { migrationsFolder });
      await migrateJobQueue(execute);
    },
    async ping() {
      await client.query("select 1");
    },
    async close() {
      if (!client.closed) await client.close();
    },
    execute,
  };
}

/** PGlite in dataDir (or in memory with no dataDir) when no URL is given; postgres.js otherwise. */
export function connectDatabase(options: { url?: string; dataDir?: string }): Database {
  if (options.url) return connectPostgres(options.url);
  if (options.dataDir) fs.mkdirSync(options.dataDir, { recursive: true });
  return wrapPglite(new PGlite(options.dataDir));
}
