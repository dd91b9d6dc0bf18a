import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { drizzle } from "drizzle-orm/postgres-js";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";

import { namedBenchDatabase, percentile, writeResult } from "./support";

/*
 * Client teams' migration on a live database (decision 283): a database migrated to the release
 * before it, --customers customer accounts each with a live session, then the migration (empty
 * tables) and the batched backfill a started node runs, while "old nodes" keep answering: loops resolve sessions the way the previous release did (a
 * session joined to its user) and write to accounts, on other connections. Prints how long the migration took, the
 * readers' p99 and slowest answer during it, and checks every customer became the owner of a
 * client of one with their own id and name. Exits non-zero when the backfill is wrong.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/client-migration.ts [--customers 100000]
 */

const { values: args } = parseArgs({ options: { customers: { type: "string", default: "100000" } } });
const CUSTOMERS = Number(args.customers);
const MIGRATION = "0029_client_teams";

const bench = await namedBenchDatabase("client_migration", false);
const folder = path.resolve("db/migrations");

// The release before: the migrations folder without client teams' (and any later) migration.
const before = fs.mkdtempSync(path.join(os.tmpdir(), "brandlift-migrations-"));
fs.cpSync(folder, before, { recursive: true });
const journalPath = path.join(before, "meta/_journal.json");
const journal = JSON.parse(fs.readFileSync(journalPath, "utf8")) as { entries: { idx: number; tag: string }[] };
const cut = journal.entries.findIndex((entry) => entry.tag === MIGRATION);
if (cut < 0) throw new Error(`No ${MIGRATION} in the journal`);
journal.entries = journal.entries.slice(0, cut);
fs.writeFileSync(journalPath, JSON.stringify(journal));

const admin = postgres(bench.url, { max: 1, onnotice: () => {} });
await migrate(drizzle({ client: admin }), { migrationsFolder: before });

const seeded = performance.now();
await admin`insert into users (email, name, role, created_at)
  select 'customer' || i || '@bench.test', 'Customer ' || i, 'user', now() - i * interval '1 minute' from generate_series(1, ${CUSTOMERS}::int) i`;
await admin`insert into sessions (token_hash, kind, user_id, expires_at)
  select md5(id::text), 'cookie', id, now() + interval '30 days' from users where role = 'user'`;
await admin`analyze`;
const seedMs = performance.now() - seeded;
const tokens = (await admin<{ token_hash: string }[]>`select token_hash from sessions order by random() limit 1000`).map((row) => row.token_hash);

// Old nodes answering while the migration runs: each read resolves a session as the previous release did.
const readers = postgres(bench.url, { max: 4, onnotice: () => {} });
const samples: number[] = [];
let failures = 0;
let reading = true;
async function readLoop() {
  let i = 0;
  while (reading) {
    const started = performance.now();
    try {
      await readers`select u.id, u.name, u.role from sessions s join users u on u.id = s.user_id where s.token_hash = ${tokens[i++ % tokens.length]!} and s.expires_at > now() limit 1`;
      samples.push(performance.now() - started);
    } catch {
      failures += 1;
    }
  }
}
// And writing: an old node records a session's last use and renames an account.
const writes: number[] = [];
async function writeLoop() {
  let i = 0;
  while (reading) {
    const started = performance.now();
    try {
      await readers`update users set name = name, updated_at = now() where email = ${"customer" + (1 + (i++ % CUSTOMERS)) + "@bench.test"}`;
      writes.push(performance.now() - started);
    } catch {
      failures += 1;
    }
  }
}
const loops = [...Array.from({ length: 3 }, () => readLoop()), writeLoop()];
await new Promise((resolve) => setTimeout(resolve, 500));
const warm = samples.length;
const warmWrites = writes.length;

// Expand (the migration: empty tables), then backfill in short batches as a started node does.
const started = performance.now();
await migrate(drizzle({ client: admin }), { migrationsFolder: folder });
const migrationMs = performance.now() - started;
process.env.DATABASE_URL = bench.url;
process.env.LOG_LEVEL = "silent";
const { backfillClientsOfOne } = await import("../app/models/clients.server");
const backfillStarted = performance.now();
const moved = await backfillClientsOfOne();
const backfillMs = performance.now() - backfillStarted;
await new Promise((resolve) => setTimeout(resolve, 300));
reading = false;
await Promise.all(loops);

const during = samples.slice(warm).sort((a, b) => a - b);
const writesDuring = writes.slice(warmWrites).sort((a, b) => a - b);
const [check] = await admin<{ customers: number; clients: number; owners: number; mismatched: number }[]>`
  select (select count(*)::int from users where role = 'user') as customers,
         (select count(*)::int from clients) as clients,
         (select count(*)::int from client_members where role = 'owner' and client_id = user_id and joined_at is not null) as owners,
         (select count(*)::int from users u left join clients c on c.id = u.id where u.role = 'user' and (c.id is null or c.name <> u.name)) as mismatched`;
await readers.end();
await admin.end();
await bench.close();
fs.rmSync(before, { recursive: true, force: true });

const result = {
  customers: CUSTOMERS,
  seedMs: Math.round(seedMs),
  migrationMs: Math.round(migrationMs),
  backfillMs: Math.round(backfillMs),
  moved,
  readsDuringMigration: during.length,
  readFailures: failures,
  readP50Ms: Number(percentile(during, 50)?.toFixed(2) ?? NaN),
  readP99Ms: Number(percentile(during, 99)?.toFixed(2) ?? NaN),
  readMaxMs: Number((during.at(-1) ?? NaN).toFixed(2)),
  writesDuringMigration: writesDuring.length,
  writeP99Ms: Number(percentile(writesDuring, 99)?.toFixed(2) ?? NaN),
  writeMaxMs: Number((writesDuring.at(-1) ?? NaN).toFixed(2)),
  backfill: check,
};
console.log(result);
writeResult("client-migration", result);
const correct = check!.customers === CUSTOMERS && check!.clients === CUSTOMERS && check!.owners === CUSTOMERS && check!.mismatched === 0;
if (!correct || failures > 0) {
  console.error("The backfill is wrong or old nodes' reads failed during the migration.");
  process.exit(1);
}
