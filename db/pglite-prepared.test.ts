import fs from "node:fs";
import { PGlite, types, type QueryOptions, type Results } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, inject, test, vi } from "vitest";

import { prepareStatements } from "./pglite-prepared";

/*
 * The embedded database's prepared path (db/pglite-prepared.ts) against PGlite's own `query` on the
 * same instance: the same rows, fields and counts, the same errors, a statement a migration altered
 * run again, and texts past the cap left to PGlite's own path.
 */

type Query = <T>(text: string, params?: unknown[], options?: QueryOptions) => Promise<Results<T>>;

/** A PGlite of its own, from the run's migrated template (an empty one would run initdb: seconds more). */
let pg: PGlite;
/** PGlite's own query on the same instance, taken before the prepared path replaced it. */
let own: Query;

beforeAll(async () => {
  pg = await PGlite.create({ loadDataDir: new Blob([fs.readFileSync(inject("databaseTemplate"))]) });
  own = pg.query.bind(pg);
  prepareStatements(pg);
  await pg.exec(`create table kinds (
    id integer primary key,
    name text not null,
    data jsonb,
    at timestamptz,
    day date,
    tags text[],
    scores integer[],
    bytes bytea,
    amount numeric(10, 2),
    big bigint,
    done boolean
  )`);
});
afterAll(async () => {
  await pg.close();
});

const row = [
  1,
  "Ünïcode 'quoted' \"name\"",
  { nested: { list: [1, "two", null] }, flag: true },
  new Date("2026-11-29T13:14:15.678Z"),
  "2026-11-29",
  ["a", "b c", 'd"e', null],
  [3, 1, 2],
  new Uint8Array([0, 1, 254, 255]),
  "1234.50",
  9_007_199_254_740_993n,
  true,
];
const insert = "insert into kinds (id, name, data, at, day, tags, scores, bytes, amount, big, done) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)";
const select = "select * from kinds where id = $1";
/** As drizzle asks for its mapped selects: rows as arrays, dates as PostgreSQL's text. */
const asDrizzle: QueryOptions = {
  rowMode: "array",
  parsers: { [types.TIMESTAMPTZ]: (value) => value, [types.DATE]: (value) => value },
};

/** An error's own properties and message, to compare one driver path's with the other's. */
async function failure(run: Promise<unknown>) {
  const error = await run.then(
    () => expect.fail("the statement succeeded"),
    (reason: unknown) => reason as Error,
  );
  return { ...error, message: error.message, constructor: error.constructor };
}

describe("the prepared path gives what PGlite's own query gives", () => {
  test("rows, fields and counts for json, dates, arrays, bytea, numeric, bigint and booleans, as objects and as arrays", async () => {
    const inserted = await pg.query(insert, row);
    expect(inserted.affectedRows).toBe(1);
    await own(insert, [2, ...row.slice(1)]);

    const prepared = await pg.query(select, [1]);
    const plain = await own(select, [1]);
    expect(prepared).toEqual(plain);
    expect(prepared.rows).toEqual([
      {
        id: 1,
        name: row[1],
        data: row[2],
        at: row[3],
        day: new Date("2026-11-29T00:00:00.000Z"),
        tags: row[5],
        scores: row[6],
        bytes: row[7],
        amount: "1234.50",
        big: 9_007_199_254_740_993n,
        done: true,
      },
    ]);
    expect(await pg.query(select, [2])).toEqual(await own(select, [2]));
    expect(await pg.query(select, [2], asDrizzle)).toEqual(await own(select, [2], asDrizzle));
    expect((await pg.query<unknown[]>(select, [1], asDrizzle)).rows[0]).toContain("2026-11-29");

    const update = "update kinds set done = $1 where id >= $2";
    const updated = await pg.query(update, [false, 1]);
    expect(updated).toEqual(await own(update, [false, 1]));
    expect(updated.affectedRows).toBe(2);
    // Without parameters (its own one call, unnamed): the same answer.
    const all = "select id, data, tags from kinds order by id";
    expect(await pg.query(all)).toEqual(await own(all));
  });

  test("null and undefined are NULL, as PGlite's query sends them", async () => {
    const text = "select $1::text as a, $2::integer as b, coalesce($3::jsonb, '{}') as c";
    expect(await pg.query(text, [null, undefined, null])).toEqual(await own(text, [null, undefined, null]));
  });

  test("a refused row's error has PGlite's code, detail, constraint and query", async () => {
    const duplicate = "insert into kinds (id, name) values ($1, $2)";
    await pg.query(duplicate, [10, "first"]);
    const prepared = await failure(pg.query(duplicate, [10, "again"]));
    const plain = await failure(own(duplicate, [10, "again"]));
    expect(prepared).toEqual(plain);
    expect(prepared).toMatchObject({
      code: "23505",
      constraint: "kinds_pkey",
      detail: "Key (id)=(10) already exists.",
      query: duplicate,
      params: [10, "again"],
    });

    const missingName = await failure(pg.query(duplicate, [11, null]));
    expect(missingName).toEqual(await failure(own(duplicate, [11, null])));
    expect(missingName).toMatchObject({ code: "23502", column: "name" });
  });

  test("a value PostgreSQL cannot read, and a text it cannot parse, fail as with PGlite's query", async () => {
    const byId = "select name from kinds where id = $1";
    const unreadable = await failure(pg.query(byId, ["not a number"]));
    expect(unreadable).toEqual(await failure(own(byId, ["not a number"])));
    expect(unreadable).toMatchObject({ code: "22P02" });

    const broken = "select name form kinds where id = $1";
    const unparsable = await failure(pg.query(broken, [1]));
    expect(unparsable).toEqual(await failure(own(broken, [1])));
    expect(unparsable).toMatchObject({ code: "42601", position: expect.any(String) as string });
    // And the instance answers afterwards.
    expect((await pg.query<{ name: string }>(byId, [10])).rows).toEqual([{ name: "first" }]);
  });
});

describe("a statement a migration altered", () => {
  test("is prepared again and answers with the table's new shape", async () => {
    await pg.exec("create table migrated (id integer primary key, a text)");
    const text = "select * from migrated where id = $1";
    await pg.query("insert into migrated values ($1, $2)", [1, "x"]);
    expect((await pg.query(text, [1])).rows).toEqual([{ id: 1, a: "x" }]);

    await pg.exec("alter table migrated add column b integer default 7");
    const after = await pg.query(text, [1]);
    expect(after.rows).toEqual([{ id: 1, a: "x", b: 7 }]);
    expect(after).toEqual(await own(text, [1]));
  });

  test("inside a transaction fails it as PostgreSQL says, and runs again once the transaction is over", async () => {
    await pg.exec("create table altered (id integer primary key)");
    const text = "select * from altered where id > $1";
    await pg.query(text, [0]);
    await pg.exec("alter table altered add column note text");

    const inside = await failure(pg.transaction((tx) => tx.query(text, [0])));
    expect(inside).toMatchObject({ code: "0A000", query: text });
    expect((await pg.query(text, [0])).fields.map((field) => field.name)).toEqual(["id", "note"]);
    expect(await pg.transaction((tx) => tx.query(text, [0]))).toEqual(await own(text, [0]));
  });
});

describe("transactions", () => {
  test("their statements are prepared, committed or rolled back with the transaction", async () => {
    await pg.exec("create table moves (id integer primary key)");
    const add = "insert into moves (id) values ($1)";
    await pg.transaction(async (tx) => {
      await tx.query(add, [1]);
      await tx.query(add, [2]);
    });
    await expect(
      pg.transaction(async (tx) => {
        await tx.query(add, [3]);
        throw new Error("changed my mind");
      }),
    ).rejects.toThrow("changed my mind");
    expect((await pg.query("select id from moves order by id")).rows).toEqual([{ id: 1 }, { id: 2 }]);
    const names = await pg.query<{ statement: string }>("select statement from pg_prepared_statements where statement = $1", [add]);
    expect(names.rows).toHaveLength(1);

    let kept: { query: Query } | undefined;
    await pg.transaction(async (tx) => void (kept = tx));
    await expect(kept!.query(add, [4])).rejects.toThrow("Transaction is closed");
  });
});

describe("the cap", () => {
  test("new texts past it run through PGlite's own query, with the same answers", async () => {
    // This instance as PGlite made it, with a prepared path of its own capped at two texts.
    const wrapped = { query: pg.query, transaction: pg.transaction };
    const unwrapped = pg as Partial<Pick<PGlite, "query" | "transaction">>;
    delete unwrapped.query;
    delete unwrapped.transaction;
    try {
      const plain = vi.spyOn(pg, "query");
      prepareStatements(pg, { statementsMax: 2 });
      const texts = ["select $1::integer + 1 as n", "select $1::integer + 2 as n", "select $1::integer + 3 as n"];
      for (const text of texts) expect((await pg.query(text, [1])).rows).toHaveLength(1);
      expect(plain.mock.calls.map(([text]) => text)).toEqual([texts[2]]);

      // Texts already prepared stay prepared; the third keeps going PGlite's own way.
      plain.mockClear();
      expect((await pg.query<{ n: number }>(texts[0]!, [5])).rows).toEqual([{ n: 6 }]);
      expect((await pg.query<{ n: number }>(texts[2]!, [5])).rows).toEqual([{ n: 8 }]);
      expect(plain.mock.calls.map(([text]) => text)).toEqual([texts[2]]);
      const prepared = await own<{ statement: string }>("select statement from pg_prepared_statements where statement like $1 order by statement", [
        "select $1::integer + %",
      ]);
      expect(prepared.rows.map((r) => r.statement)).toEqual(texts.slice(0, 2));
    } finally {
      Object.assign(pg, wrapped);
    }
  });
});
