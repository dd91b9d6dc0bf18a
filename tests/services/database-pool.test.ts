import crypto from "node:crypto";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { connectPostgres, type Database } from "#db/client";

/*
 * The pool of a node on real PostgreSQL: warm() opens every connection at boot, so that a burst of
 * requests later (eight chat messages at one instant) opens none; a new connection costs a server
 * process, its sign-in and the driver's read of the array types (docs/decisions/316).
 */

const adminUrl = process.env.DATABASE_URL!;
const name = `brandlift_pool_${crypto.randomBytes(4).toString("hex")}`;
const appName = `pool-${crypto.randomBytes(4).toString("hex")}`;
const POOL = 4;
let admin: postgres.Sql;
let database: Database;

/** The server processes of this pool's connections, as PostgreSQL lists them. */
async function connections(): Promise<number[]> {
  const rows = await admin<{ pid: number }[]>`select pid from pg_stat_activity where application_name = ${appName} order by pid`;
  return rows.map((row) => row.pid);
}

beforeAll(async () => {
  admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  url.searchParams.set("application_name", appName);
  database = connectPostgres(url.toString(), { max: POOL });
});

afterAll(async () => {
  await database?.close();
  await admin.unsafe(`drop database if exists ${name} with (force)`);
  await admin.end();
});

describe("the PostgreSQL pool", () => {
  test("opens no connection before it is used, every one at warm(), and none for a burst after that", async () => {
    expect(await connections()).toEqual([]);
    await database.warm!();
    const warmed = await connections();
    expect(warmed).toHaveLength(POOL);

    // As many statements at once as the pool holds: each runs on a connection warm() opened.
    const burst = await Promise.all(
      Array.from({ length: POOL }, () => database.execute("select pg_backend_pid() as pid, pg_sleep(0.05) from (select $1::int) as one", [1])),
    );
    const used = burst.map(({ rows }) => Number(rows[0]!.pid));
    expect(used.every((pid) => warmed.includes(pid))).toBe(true);
    expect(await connections()).toEqual(warmed);
  });
});
