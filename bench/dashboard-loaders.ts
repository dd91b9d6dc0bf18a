import { performance } from "node:perf_hooks";

import { scratchDatabase, writeResult } from "./support";

/*
 * The dashboard's loaders at size: 10,000 customers, 100,000 purchases (one order each) and
 * 20,000 reports, seeded with generate_series in a scratch database, then each loader's queries
 * timed (median and p95 of 30 runs) with the query plans of the ones that must use an index.
 *
 *   npx tsx bench/dashboard-loaders.ts                      # scratch PGlite in memory
 *   BENCH_DATABASE_URL=postgres://…/scratch npx tsx bench/dashboard-loaders.ts   # an EMPTY PostgreSQL DB
 */

const CUSTOMERS = 10_000;
const PURCHASES = 100_000;
const REPORTS = 20_000;
const RUNS = 30;

const database = await scratchDatabase("dash");

const { sql } = await import("drizzle-orm");
const { seedCatalogue } = await import("#db/seed");
const { db } = await import("~/utils/db.server");
const { getTeamCounts, getCustomerCounts } = await import("~/models/stats.server");
const { listCustomers, findCustomer } = await import("~/models/customers.server");
const { listPurchasesForUser, listPurchasesByEmail, getPurchaseFor } = await import("~/models/purchases.server");
const { listReportsForUser, listReportsForService } = await import("~/models/reports.server");

async function seed() {
  const started = performance.now();
  await seedCatalogue(db);
  await db.execute(sql`
    insert into users (email, name, role, created_at)
    select 'bench-' || g || '@bench.test', 'Bench Customer ' || g, 'user', now() - (g || ' minutes')::interval
    from generate_series(1, ${CUSTOMERS}) g`);
  await db.execute(sql`insert into users (email, name, role) values ('bench-staff@bench.test', 'Bench Staff', 'team')`);
  await db.execute(sql`
    with u as (select id, email, row_number() over (order by email) as n from users where role = 'user')
    insert into orders (email, name, user_id, status, total_cents, stripe_session_id, created_at)
    select u.email, 'Bench', u.id, 'paid', 14900, 'cs_bench_' || g, now() - (g || ' seconds')::interval
    from generate_series(1, ${PURCHASES}) g join u on u.n = (g % ${CUSTOMERS}) + 1`);
  await db.execute(sql`
    with s as (select id, price_cents, row_number() over (order by sort_order) - 1 as n, count(*) over () as total from services)
    insert into purchases (order_id, service_id, user_id, amount_cents, status, created_at)
    select o.id, s.id, o.user_id, s.price_cents,
      (array['in_progress','in_progress','in_progress','completed','completed','completed','pending','cancelled','refunded','in_progress'])[(abs(hashtext(o.id::text)) % 10) + 1],
      o.created_at
    from orders o join s on s.n = abs(hashtext(o.stripe_session_id)) % s.total`);
  await db.execute(sql`
    insert into reports (user_id, service_id, purchase_id, title, file_name, file_size, mime_type, storage_key, created_at)
    select p.user_id, p.service_id, p.id, 'Bench report', 'bench.pdf', 1234, 'application/pdf', 'reports/bench-' || p.id || '.pdf', p.created_at
    from purchases p where p.status in ('in_progress', 'completed') limit ${REPORTS}`);
  // Candidate indexes not (yet) in db/schema.ts, to measure before proposing them.
  if (process.env.BENCH_EXTRA_INDEXES) {
    await db.execute(sql`create index purchases_status_amount_idx on purchases (status) include (amount_cents)`);
  }
  await db.execute(sql`vacuum analyze`);
  return performance.now() - started;
}

async function time(name: string, run: () => Promise<unknown>) {
  await run(); // warm the plan and the cache
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await run();
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))];
  return { loader: name, medianMs: +at(0.5).toFixed(2), p95Ms: +at(0.95).toFixed(2) };
}

async function plan(query: ReturnType<typeof sql>) {
  return (await rows<Record<string, string>>(sql`explain ${query}`)).map((r) => Object.values(r)[0]).join("\n");
}

/** PGlite answers { rows }, postgres.js an array: the rows either way. */
async function rows<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows?: T[] } | T[];
  return Array.isArray(result) ? result : (result.rows ?? []);
}

const seedMs = await seed();
const [customer] = await rows<{ id: string; email: string }>(sql`select id, email from users where role = 'user' order by created_at desc limit 1 offset 5000`);
const [staff] = await rows<{ id: string; role: "team" }>(sql`select id, role from users where role = 'team' limit 1`);
const [somePurchase] = await listPurchasesForUser(customer.id);
const serviceId = somePurchase.serviceId;

const results = [
  await time("dashboard (team): overview counts", () => getTeamCounts()),
  await time("dashboard (customer): overview counts", () => getCustomerCounts(customer.id)),
  await time("users tab: page 1", () => listCustomers({ page: 1 })),
  await time("users tab: page 250", () => listCustomers({ page: 250 })),
  await time("users tab: search 'customer 77'", () => listCustomers({ search: "customer 77" })),
  await time("user detail: customer + purchases + reports", () =>
    Promise.all([findCustomer(customer.id), listPurchasesForUser(customer.id), listReportsForUser(customer.id)]),
  ),
  await time("services tab: my purchases", () => listPurchasesForUser(customer.id)),
  await time("service detail: purchase + its reports", () =>
    Promise.all([getPurchaseFor(staff, somePurchase.id), listReportsForService(customer.id, serviceId)]),
  ),
  await time("reports tab: my reports", () => listReportsForUser(customer.id)),
  await time("API: purchases by e-mail", () => listPurchasesByEmail(customer.email)),
];

const [counts] = await rows(
  sql`select (select count(*)::int from users where role = 'user') as customers, (select count(*)::int from purchases) as purchases, (select count(*)::int from reports) as reports`,
);
console.log(`\nDashboard loaders on ${database.kind}: ${JSON.stringify(counts)} (seeded in ${(seedMs / 1000).toFixed(1)} s)\n`);
console.table(results);
console.log("\nPlans:");
console.log(
  "\n-- a customer's purchases\n" +
    (await plan(
      sql`select * from purchases where user_id = ${customer.id} and status in ('in_progress','completed','refunded') order by created_at desc, id desc`,
    )),
);
console.log("\n-- a customer's reports\n" + (await plan(sql`select * from reports where user_id = ${customer.id} order by created_at desc, id desc`)));
console.log("\n-- users tab, page 250\n" + (await plan(sql`select id from users where role = 'user' order by created_at desc, id desc limit 20 offset 4980`)));
console.log("\n-- revenue\n" + (await plan(sql`select coalesce(sum(amount_cents), 0), count(*) from purchases where status in ('in_progress','completed')`)));

writeResult("dashboard-loaders", { database: database.kind, customers: CUSTOMERS, purchases: PURCHASES, reports: REPORTS, results });
await database.close();
