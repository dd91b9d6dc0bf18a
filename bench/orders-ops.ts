import { performance } from "node:perf_hooks";

import { scratchDatabase } from "./support";

/*
 * Running the agency at size (decision 092): 10,000 customers, 100,000 orders over the last twelve
 * months and 1,000,000 order lines, seeded with generate_series in a scratch database. Times the
 * orders list (pages, filters, search), the revenue series and the overview's revenue (median and
 * p95 of 40 runs), then streams the whole CSV export while sampling the process's RSS.
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/brandlift_ops npx tsx bench/orders-ops.ts   # an EMPTY database
 *   npx tsx bench/orders-ops.ts                                                                         # scratch PGlite in memory
 */

const CUSTOMERS = 10_000;
const ORDERS = 100_000;
const LINES_PER_ORDER = 10;
const RUNS = 40;

const database = await scratchDatabase("ops");

const { sql } = await import("drizzle-orm");
const { seedCatalogue } = await import("#db/seed");
const { db } = await import("~/utils/db.server");
const { queryRows } = await import("~/utils/db-cursor.server");
const { listOrders } = await import("~/models/orders-list.server");
const { ordersCsvStream } = await import("~/models/orders-export.server");
const { revenueByMonth } = await import("~/models/revenue.server");
const { getTeamCounts } = await import("~/models/stats.server");

async function seed() {
  const started = performance.now();
  await seedCatalogue(db);
  await db.execute(sql`
    insert into users (email, name, role, created_at)
    select 'bench-' || g || '@bench.test', 'Bench Customer ' || g, 'user', now() - (g || ' minutes')::interval
    from generate_series(1, ${CUSTOMERS}) g`);
  // Orders spread over the last 365 days: 80% paid (5% of those partly and 3% fully refunded), the rest pending or expired.
  await db.execute(sql`
    with u as (select id, email, name, row_number() over (order by email) as n from users where role = 'user')
    insert into orders (email, name, user_id, status, total_cents, refunded_cents, stripe_session_id, stripe_payment_intent_id, created_at, paid_at)
    select u.email, u.name, case when g % 10 < 8 then u.id end,
      case when g % 100 < 3 then 'refunded' when g % 100 < 8 then 'partially_refunded' when g % 10 < 8 then 'paid' when g % 10 = 8 then 'pending' else 'cancelled' end,
      ${LINES_PER_ORDER} * 2899,
      case when g % 100 < 3 then ${LINES_PER_ORDER} * 2899 when g % 100 < 8 then 1000 else 0 end,
      'cs_bench_' || g, case when g % 10 < 8 then 'pi_bench_' || g end,
      now() - ((g * 315) || ' seconds')::interval,
      case when g % 10 < 8 then now() - ((g * 315 - 60) || ' seconds')::interval end
    from generate_series(1, ${ORDERS}) g join u on u.n = (g % ${CUSTOMERS}) + 1`);
  await db.execute(sql`
    with s as (select id, row_number() over (order by sort_order, id) - 1 as n, count(*) over () as total from services)
    insert into purchases (order_id, service_id, user_id, amount_cents, status, created_at)
    select o.id, s.id, o.user_id, 2899,
      case when o.status in ('paid', 'partially_refunded') then 'in_progress' when o.status = 'refunded' then 'refunded' when o.status = 'pending' then 'pending' else 'cancelled' end,
      o.created_at
    from orders o cross join generate_series(0, ${LINES_PER_ORDER - 1}) k
    join s on s.n = k % s.total`);
  await db.execute(sql`vacuum analyze`);
  return performance.now() - started;
}

async function time(name: string, run: () => Promise<unknown>) {
  await run();
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await run();
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))];
  return { query: name, medianMs: +at(0.5).toFixed(2), p95Ms: +at(0.95).toFixed(2) };
}

async function plan(query: ReturnType<typeof sql>) {
  return (await queryRows<Record<string, string>>(sql`explain (analyze, costs off, timing off, summary on) ${query}`))
    .map((r) => Object.values(r)[0])
    .join("\n");
}

/** Reads the whole export as a client would, sampling RSS every 20 ms. */
async function exportRun() {
  global.gc?.();
  const rssBefore = process.memoryUsage().rss;
  let peak = rssBefore;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const started = performance.now();
  const reader = ordersCsvStream({}).getReader();
  let bytes = 0;
  let rows = -1;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    for (const byte of value) if (byte === 10) rows += 1;
  }
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().rss);
  return {
    rows,
    mb: +(bytes / 1048576).toFixed(1),
    seconds: +((performance.now() - started) / 1000).toFixed(2),
    rssBeforeMb: Math.round(rssBefore / 1048576),
    rssPeakMb: Math.round(peak / 1048576),
  };
}

const seedMs = await seed();
const [sample] = await queryRows<{ email: string }>(sql`select email from orders order by created_at desc offset 5000 limit 1`);
const today = new Date();
const monthAgo = new Date(today.getTime() - 30 * 86_400_000).toISOString().slice(0, 10);

const results = [
  await time("orders list: page 1", () => listOrders({ page: 1 })),
  await time("orders list: page 100", () => listOrders({ page: 100 })),
  await time("orders list: page 2,000 (deep)", () => listOrders({ page: 2000 })),
  await time("orders list: status=refunded", () => listOrders({ status: "refunded" })),
  await time("orders list: status=paid, last 30 days", () => listOrders({ status: "paid", from: new Date(`${monthAgo}T00:00:00Z`) })),
  await time("orders list: search e-mail", () => listOrders({ search: sample.email })),
  await time("orders list: search name 'customer 77'", () => listOrders({ search: "customer 77" })),
  await time("revenue series: 12 months", () => revenueByMonth(12)),
  await time("overview counts (net revenue)", () => getTeamCounts()),
];

const [counts] = await queryRows(
  sql`select (select count(*)::int from users where role = 'user') as customers, (select count(*)::int from orders) as orders, (select count(*)::int from purchases) as lines`,
);
console.log(`\nOrders and revenue on ${database.kind}: ${JSON.stringify(counts)} (seeded in ${(seedMs / 1000).toFixed(1)} s)\n`);
console.table(results);
console.log("\nCSV export of every order (streamed):");
console.table([await exportRun(), await exportRun()]);
console.log("\n-- page 1 of the list\n" + (await plan(sql`select id from orders order by created_at desc, id desc limit 25`)));
console.log(
  "\n-- the revenue series\n" +
    (await plan(
      sql`select to_char(date_trunc('month', paid_at at time zone 'UTC'), 'YYYY-MM'), sum(total_cents - refunded_cents), count(*) from orders where paid_at is not null and paid_at >= now() - interval '1 year' and status in ('paid', 'partially_refunded') group by 1`,
    )),
);
await database.close();
