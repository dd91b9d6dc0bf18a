import { messages, parse, protocol, type PGlite, type QueryOptions, type Results, type Transaction } from "@electric-sql/pglite";

/*
 * A test database's parameterised queries run as named prepared statements, each text parsed and
 * described once per PGlite instance and then only bound and executed, in one call into PGlite
 * (bind, execute and sync together). PGlite's own `query` parses, describes, binds, describes again
 * and executes every statement in six calls: for the short statements of a request, most of its
 * time. The statements, their parameters and the rows that come back are the same; PostgreSQL in
 * production prepares them too (postgres.js, decision 299). Decision 319.
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
/** PostgreSQL refuses a prepared statement whose result's shape a schema change altered (a migration test). */
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

/** Replaces `query` on the instance, and on the transactions it opens, with the prepared path. */
export function prepareStatements(pg: PGlite): PGlite {
  const statements = new Map<string, Statement>();
  let named = 0;
  const { serialize } = protocol;
  const send = async (...parts: Uint8Array[]) => (await pg.execProtocol(concat(parts), { syncToFs: false })).messages;

  async function prepare(text: string): Promise<Statement> {
    const name = `brandlift_test_${named++}`;
    const answer = await send(serialize.parse({ name, text }), serialize.describe({ type: "S", name }), serialize.sync());
    const statement: Statement = {
      name,
      parameterTypes: answer.find((m): m is messages.ParameterDescriptionMessage => m.name === "parameterDescription")?.dataTypeIDs ?? [],
      rowDescription: answer.find((m): m is messages.RowDescriptionMessage => m.name === "rowDescription"),
    };
    statements.set(text, statement);
    return statement;
  }

  async function execute<T>(statement: Statement, params: unknown[], options: QueryOptions | undefined): Promise<Results<T>> {
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const type = statement.parameterTypes[i]!;
      const serializer = options?.serializers?.[type] ?? pg.serializers[type];
      return serializer ? serializer(value) : String(value);
    });
    const answer = await send(serialize.bind({ statement: statement.name, values }), serialize.execute({}), serialize.sync());
    return parse.parseResults(statement.rowDescription ? [statement.rowDescription, ...answer] : answer, pg.parsers, options)[0] as Results<T>;
  }

  /** As PGlite's own query, inside its query lock; an error carries the query as PGlite's does. */
  async function runQuery<T>(text: string, params: unknown[], options: QueryOptions | undefined): Promise<Results<T>> {
    return pg._runExclusiveQuery(async () => {
      try {
        let statement = statements.get(text) ?? (await prepare(text));
        try {
          return await execute<T>(statement, params, options);
        } catch (error) {
          if (!(error instanceof messages.DatabaseError) || error.code !== CACHED_PLAN_CHANGED) throw error;
          await send(serialize.close({ type: "S", name: statement.name }), serialize.sync());
          statements.delete(text);
          statement = await prepare(text);
          return await execute<T>(statement, params, options);
        }
      } catch (error) {
        if (error instanceof messages.DatabaseError) Object.assign(error, { query: text, params, queryOptions: options });
        throw error;
      }
    });
  }

  const preparable = (text: string, options: QueryOptions | undefined) =>
    !options?.blob && !options?.paramTypes && (statements.has(text) || statements.size < STATEMENTS_MAX);

  const query = pg.query.bind(pg);
  pg.query = async <T>(text: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<T>> => {
    if (!preparable(text, options)) return query<T>(text, params, options);
    await pg._checkReady();
    return pg._runExclusiveTransaction(async () => {
      const results = await runQuery<T>(text, params, options);
      await pg.syncToFs();
      return results;
    });
  };

  const transaction = pg.transaction.bind(pg);
  pg.transaction = <T>(callback: (tx: Transaction) => Promise<T>) =>
    transaction((tx) => {
      const prepared: Transaction = Object.create(tx) as Transaction;
      prepared.query = async <R>(text: string, params: unknown[] = [], options?: QueryOptions) => {
        if (tx.closed) throw new Error("Transaction is closed");
        return preparable(text, options) ? runQuery<R>(text, params, options) : tx.query<R>(text, params, options);
      };
      return callback(prepared);
    });
  return pg;
}
