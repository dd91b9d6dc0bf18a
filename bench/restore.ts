import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import postgres from "postgres";

import { namedBenchDatabase, writeResult } from "./support";

/*
 * How long `npm run backup` and `npm run restore` take on PostgreSQL at size: --orders orders (each
 * with one purchase) of 10,000 customers and --messages chat messages, seeded with generate_series
 * in a database of the bench's own; the backup is taken of it and restored into a second, empty
 * one, each timed (the storage is empty: files are copied at disk or network speed, apart).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/restore.ts [--orders 100000 --messages 1000000]
 */

const { values: args } = parseArgs({
  options: { orders: { type: "string", default: "100000" }, messages: { type: "string", default: "1000000" } },
});
const ORDERS = Number(args.orders);
const MESSAGES = Number(args.messages);
const CUSTOMERS = 10_000;

const source = await namedBenchDatabase("restore_source", false);
const target = await namedBenchDatabase("restore_target", false);
process.env.DATABASE_URL = source.url;
process.env.LOG_LEVEL = "silent";
process.env.S3_BUCKET = "";
// Migrated on one connection (the job engine's schema is made in a transaction of its own).
const { connectPostgres } = await import("#db/client");
const migrator = connectPostgres(source.url, { max: 1 });
await migrator.migrate();
await migrator.close();
const { database } = await import("../app/utils/db.server");
const { ensureCatalogue } = await import("../app/models/catalogue.server");
const { backup, restore } = await import("../app/utils/backup.server");
const { diskStorage } = await import("../app/utils/storage.server");
await ensureCatalogue();
const sql = postgres(source.url, { max: 1, onnotice: () => {} });

const t0 = performance.now();
await sql`insert into users (email, name, role, created_at)
  select 'customer' || i || '@bench.test', 'Customer ' || i, 'user', now() - i * interval '1 minute' from generate_series(1, ${CUSTOMERS}::int) i`;
await sql`create temporary table bench_customers as select row_number() over (order by email) as n, id, email, name from users where role = 'user'`;
await sql`insert into orders (email, name, user_id, status, total_cents, stripe_session_id, created_at, paid_at)
  select c.email, c.name, c.id, 'paid', 2899, 'cs_bench_' || g, now() - g * interval '5 minutes', now() - g * interval '5 minutes'
  from generate_series(1, ${ORDERS}::int) g join bench_customers c on c.n = 1 + g % ${CUSTOMERS}::int`;
await sql`insert into purchases (order_id, service_id, user_id, amount_cents, status, created_at)
  select o.id, (select id from services order by sort_order limit 1), o.user_id, 2899, 'in_progress', o.created_at from orders o`;
for (let done = 0; done < MESSAGES; done += 100_000) {
  await sql`insert into chat_messages (room_id, sender_id, customer_id, message, message_type, created_at)
    select 'support-' || c.id, c.id, c.id, 'message ' || m.i || ' about the campaign and its next steps', 'text', now() - interval '90 days' + m.i * interval '7 seconds'
    from generate_series(${done + 1}::int, ${Math.min(done + 100_000, MESSAGES)}::int) m(i) join bench_customers c on c.n = 1 + m.i % ${CUSTOMERS}::int`;
}
await sql`vacuum analyze`;
const seedMs = performance.now() - t0;
const [{ bytes }] = await sql<{ bytes: string }[]>`select pg_database_size(current_database())::text as bytes`;
await sql.end();

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "brandlift-bench-restore-"));
const dir = path.join(scratch, "backup");
const emptyStorage = diskStorage(path.join(scratch, "uploads"));

const t1 = performance.now();
const manifest = await backup(dir, { database: { kind: "postgres", url: source.url }, storage: emptyStorage });
const backupMs = performance.now() - t1;
const t2 = performance.now();
await restore(dir, { database: { kind: "postgres", url: target.url }, storage: diskStorage(path.join(scratch, "restored-uploads")) });
const restoreMs = performance.now() - t2;

const check = postgres(target.url, { max: 1, onnotice: () => {} });
const [counts] = await check<
  { orders: number; messages: number }[]
>`select (select count(*)::int from orders) as orders, (select count(*)::int from chat_messages) as messages`;
await check.end();
if (counts!.orders !== ORDERS || counts!.messages !== MESSAGES)
  throw new Error(`restored ${JSON.stringify(counts)}, expected ${ORDERS} orders and ${MESSAGES} messages`);

const result = {
  orders: ORDERS,
  messages: MESSAGES,
  databaseMB: +(Number(bytes) / 1e6).toFixed(1),
  dumpMB: +(manifest.database.bytes / 1e6).toFixed(1),
  seedS: +(seedMs / 1000).toFixed(1),
  backupS: +(backupMs / 1000).toFixed(1),
  restoreS: +(restoreMs / 1000).toFixed(1),
  machine: { cpus: os.cpus().length, loadAverage: os.loadavg().map((l) => +l.toFixed(2)) },
  at: new Date().toISOString(),
};
console.log(result);
writeResult(`restore-${ORDERS}-orders-${MESSAGES}-messages`, result);
fs.rmSync(scratch, { recursive: true, force: true });
await database.close();
await source.close();
await target.close();
