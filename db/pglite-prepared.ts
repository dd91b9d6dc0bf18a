import { messages, parse, protocol, type PGlite, type QueryOptions, type Results, type Transaction } from "@electric-sql/pglite";

/*
 * The embedded database's parameterised queries run as named prepared statements: each text is
 * parsed and described once per PGlite instance, then only bound and executed, in one call into
 * PGlite (bind, execute and sync together). PGlite's own `query` parses, describes, binds, describes
 * again and executes every statement in six calls: for the short statements of a request, most of
 * its time. A statement without parameters has nothing to bind from a description: it is parsed,
 * bound and run unnamed in one call, and keeps no place among the prepared ones (a migration's
 * statements run once). The statements, their parameters and the rows that come back are the same
 * as PGlite's `query` gives; PostgreSQL prepares them too (postgres.js, decision 299). Decisions 319
 * and 328.
 */

interface Statement {
  name: string;
  /** The parameters' types, as PostgreSQL inferred them: each value is serialized as PGlite's `query` would. */
  parameterTypes: number[];
  /** The rows' description (none for a statement that returns no rows): the execution does not send it again. */
  rowDescription: messages.RowDescriptionMessage | undefined;
}

/** Statement texts kept per instance; later new texts run through PGlite's own `query`. */
const STATEMENTS_MAX = 2_000;
/** Names are unique in the process: two prepared paths on one instance never share one. */
let named = 0;
/** PostgreSQL refuses a prepared statement whose result's shape a schema change altered (a migration). */
const CACHED_PLAN_CHANGED = "0A000";

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((size, part) => size + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/**
 * Replaces `query` on the instance, and on the transactions it opens, with the prepared path.
 * `statementsMax`: how many texts it keeps prepared (a test lowers it).
 */
export function prepareStatements(pg: PGlite, { statementsMax = STATEMENTS_MAX } = {}): PGlite {
  const statements = new Map<string, Statement>();
  const { serialize } = protocol;
  const send = (options: QueryOptions | undefined, ...parts: Uint8Array[]) =>
    pg.execProtocolStream(concat(parts), { syncToFs: false, onNotice: options?.onNotice });

  async function prepare(text: string, options: QueryOptions | undefined): Promise<Statement> {
    const name = `brandlift_${named++}`;
    const answer = await send(options, serialize.parse({ name, text }), serialize.describe({ type: "S", name }), serialize.sync());
    const statement: Statement = {
      name,
      parameterTypes: answer.find((m): m is messages.ParameterDescriptionMessage => m.name === "parameterDescription")?.dataTypeIDs ?? [],
      rowDescription: answer.find((m): m is messages.RowDescriptionMessage => m.name === "rowDescription"),
    };
    statements.set(text, statement);
    return statement;
  }

  function execute(statement: Statement, params: unknown[], options: QueryOptions | undefined) {
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const type = statement.parameterTypes[i]!;
      const serializer = options?.serializers?.[type] ?? pg.serializers[type];
      return serializer ? serializer(value) : String(value);
    });
    return send(options, serialize.bind({ statement: statement.name, values }), serialize.execute({}), serialize.sync());
  }

  /**
   * A statement a schema change altered the result of is prepared afresh and run again, once; inside
   * a transaction block the error stands (PostgreSQL aborted the block), and the next use prepares it.
   */
  async function runPrepared(text: string, params: unknown[], options: QueryOptions | undefined, retry = true): Promise<messages.BackendMessage[]> {
    const statement = statements.get(text) ?? (await prepare(text, options));
    try {
      const answer = await execute(statement, params, options);
      return statement.rowDescription ? [statement.rowDescription, ...answer] : answer;
    } catch (error) {
      if (!retry || !(error instanceof messages.DatabaseError) || error.code !== CACHED_PLAN_CHANGED) throw error;
      statements.delete(text);
      await send(options, serialize.close({ type: "S", name: statement.name }), serialize.sync());
      if (pg.isInTransaction()) throw error;
      return runPrepared(text, params, options, false);
    }
  }

  /** As PGlite's own query: inside its query lock, synced to disk outside a transaction, an error carrying the query as PGlite's does. */
  function runQuery<T>(text: string, params: unknown[], options: QueryOptions | undefined, inTransaction: boolean): Promise<Results<T>> {
    return pg._runExclusiveQuery(async () => {
      let answer: messages.BackendMessage[];
      try {
        answer =
          params.length === 0
            ? await send(options, serialize.parse({ text }), serialize.bind({}), serialize.describe({ type: "P" }), serialize.execute({}), serialize.sync())
            : await runPrepared(text, params, options);
      } catch (error) {
        if (error instanceof messages.DatabaseError) Object.assign(error, { query: text, params, queryOptions: options });
        throw error;
      }
      if (!inTransaction) await pg.syncToFs();
      return parse.parseResults(answer, pg.parsers, options, await pg._getWrittenBlob())[0] as Results<T>;
    });
  }

  /** Parameterised texts, and those without parameters, go the prepared way; a blob, explicit types or a full cache PGlite's own. */
  const preparable = (text: string, params: unknown[], options: QueryOptions | undefined) =>
    !options?.blob && !options?.paramTypes && (params.length === 0 || statements.has(text) || statements.size < statementsMax);

  const query = pg.query.bind(pg);
  pg.query = async <T>(text: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<T>> => {
    if (!preparable(text, params, options)) return query<T>(text, params, options);
    await pg._checkReady();
    return pg._runExclusiveTransaction(() => runQuery<T>(text, params, options, false));
  };

  const transaction = pg.transaction.bind(pg);
  pg.transaction = <T>(callback: (tx: Transaction) => Promise<T>) =>
    transaction((tx) => {
      const prepared: Transaction = Object.create(tx) as Transaction;
      prepared.query = async <R>(text: string, params: unknown[] = [], options?: QueryOptions) => {
        if (tx.closed) throw new Error("Transaction is closed");
        return preparable(text, params, options) ? runQuery<R>(text, params, options, true) : tx.query<R>(text, params, options);
      };
      return callback(prepared);
    });
  return pg;
}
