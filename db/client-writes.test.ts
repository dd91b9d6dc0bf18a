import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { database, db } from "~/utils/db.server";

/*
 * Database.watchWrites on this run's driver (PGlite under `npm test`, postgres.js under
 * `npm run test:services`): a change is told once it is committed, a transaction once at its end,
 * and a statement that changed nothing is not told at all.
 */

let told = 0;
let unwatch: () => void;

beforeAll(async () => {
  await db.execute(sql`create table watched_rows (id integer primary key, note text)`);
  unwatch = database.watchWrites(() => told++);
});
afterAll(() => unwatch());
beforeEach(async () => {
  await db.execute(sql`delete from watched_rows`);
  told = 0;
});

describe("writes are told after they are committed", () => {
  it("a read is not told; an insert is, before the caller goes on", async () => {
    await db.execute(sql`select id from watched_rows where id = ${1}`);
    expect(told).toBe(0);
    await db.execute(sql`insert into watched_rows (id, note) values (${1}, ${"a"})`);
    expect(told).toBe(1);
  });

  it("an update or a delete that touched no row is not told; one that did is", async () => {
    await db.execute(sql`update watched_rows set note = ${"b"} where id = ${404}`);
    await db.execute(sql`delete from watched_rows where id = ${404}`);
    expect(told).toBe(0);
    await db.execute(sql`insert into watched_rows (id, note) values (${2}, ${"a"})`);
    await db.execute(sql`update watched_rows set note = ${"b"} where id = ${2}`);
    await db.execute(sql`delete from watched_rows where id = ${2}`);
    expect(told).toBe(3);
  });

  it("an insert that met a conflict and did nothing is not told", async () => {
    await db.execute(sql`insert into watched_rows (id, note) values (${3}, ${"a"})`);
    told = 0;
    await db.execute(sql`insert into watched_rows (id, note) values (${3}, ${"b"}) on conflict (id) do nothing`);
    expect(told).toBe(0);
  });

  it("a data-modifying CTE under a select is told", async () => {
    await db.execute(sql`with made as (insert into watched_rows (id, note) values (${4}, ${"a"}) returning id) select id from made`);
    expect(told).toBe(1);
  });

  it("a transaction is told once, after its commit, however many rows it changed", async () => {
    let toldInside = -1;
    await db.transaction(async (tx) => {
      await tx.execute(sql`insert into watched_rows (id, note) values (${5}, ${"a"})`);
      await tx.execute(sql`insert into watched_rows (id, note) values (${6}, ${"a"})`);
      toldInside = told;
    });
    expect(toldInside).toBe(0);
    expect(told).toBe(1);
  });

  it("a transaction that only read, or that rolled back, is not told", async () => {
    await db.transaction(async (tx) => {
      await tx.execute(sql`select id from watched_rows`);
    });
    await expect(
      db.transaction(async (tx) => {
        await tx.execute(sql`insert into watched_rows (id, note) values (${7}, ${"a"})`);
        throw new Error("changed my mind");
      }),
    ).rejects.toThrow("changed my mind");
    expect(told).toBe(0);
  });

  it("a library's own SQL through execute is told too", async () => {
    await database.execute("insert into watched_rows (id, note) values ($1, $2)", [8, "a"]);
    expect(told).toBe(1);
    await database.execute("update watched_rows set note = $1 where id = $2", ["b", 404]);
    expect(told).toBe(1);
  });
});
