/**
 * The inbox query at scale (decision 095): 10,000 customer threads and 1,000,000 messages on
 * PostgreSQL, then GET /api/chat/threads' query (listThreads) timed as the app runs it: the first
 * page, the filters, a search by name, by e-mail and by message text. Target: p95 < 50 ms.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/brandlift_inbox npx tsx bench/inbox-query.ts [--threads 10000] [--messages 1000000] [--runs 200] [--keep]
 *
 * It creates (and, without --keep, drops) its own database `<name>_inbox_bench` on that server.
 */
import { parseArgs } from "node:util";
import postgres from "postgres";

import { seedThreadWords } from "./seed-thread-words";
import { namedBenchDatabase, timeRuns } from "./support";

const { values: args } = parseArgs({
  options: {
    threads: { type: "string", default: "10000" },
    messages: { type: "string", default: "1000000" },
    runs: { type: "string", default: "200" },
    keep: { type: "boolean", default: false },
  },
});
const THREADS = Number(args.threads);
const MESSAGES = Number(args.messages);
const RUNS = Number(args.runs);

const bench = await namedBenchDatabase("inbox_bench", args.keep);
const benchUrl = new URL(bench.url);
const reuse = bench.reused;
// The app's own modules, on the bench database.
process.env.DATABASE_URL = benchUrl.toString();
const { database } = await import("../app/utils/db.server");
const { listThreads } = await import("../app/models/inbox.server");
await database.migrate();
const sql = postgres(benchUrl.toString(), { max: 1, onnotice: () => {} });

async function fill() {
  const t0 = performance.now();
  await sql`truncate users, chat_messages, chat_threads, chat_attachments cascade`;
  await sql`insert into users (email, name, role) values ('bench-staff-1@bench.test', 'Bench Staff One', 'team'), ('bench-staff-2@bench.test', 'Bench Staff Two', 'team')`;
  await sql`insert into users (email, name, role)
    select 'customer' || i || '@bench.test', 'Customer ' || i || ' ' || (array['Avery','Brooks','Carter','Diaz','Evans','Foster','Garcia','Hughes'])[1 + i % 8], 'user'
    from generate_series(1, ${THREADS}::int) i`;
  // Messages: 6 everyday words (from 300, so each is in most threads) and 2 rare ones (from 200,000,
  // each in about 10 messages), two in three from the customer.
  // The text-search index is built after the rows, as a restore would.
  await sql`drop index if exists chat_messages_search_idx`;
  await sql`create temporary table bench_customers as select row_number() over (order by id) as n, id from users where role = 'user'`;
  const [staff] = await sql`select id from users where email = 'bench-staff-1@bench.test'`;
  const perBatch = 100_000;
  for (let done = 0; done < MESSAGES; done += perBatch) {
    await sql`insert into chat_messages (room_id, sender_id, receiver_id, customer_id, message, message_type, created_at)
      select 'support-' || c.id, case when m.i % 3 = 0 then ${staff!.id}::uuid else c.id end, case when m.i % 3 = 0 then c.id else null end, c.id,
        (select string_agg(case when k <= 6 then 'word' || (abs(hashint4(m.i * 8 + k)) % 300) else 'rare' || (abs(hashint4(m.i * 8 + k)) % 200000) end, ' ') from generate_series(1, 8) k),
        'text', now() - interval '90 days' + (m.i * interval '7 seconds')
      from generate_series(${done + 1}::int, ${Math.min(done + perBatch, MESSAGES)}::int) m(i)
      join bench_customers c on c.n = 1 + (abs(hashint4(m.i)) % ${THREADS}::int)`;
    process.stdout.write(`\r${Math.min(done + perBatch, MESSAGES).toLocaleString("en-US")} messages`);
  }
  console.log();
  await sql`create index chat_messages_search_idx on chat_messages using gin (to_tsvector('simple', message))`;
  // The thread summaries, as the migration's backfill builds them for existing data.
  await sql`insert into chat_threads (room_id, customer_id, last_message_id, last_message_at, team_unread, status, assignee_id)
    select distinct on (room_id) room_id, customer_id, id, created_at, (abs(hashint4(length(room_id) + extract(epoch from created_at)::int)) % 3),
      case when random() < 0.2 then 'closed' else 'open' end,
      case when random() < 0.5 then null else ${staff!.id}::uuid end
    from chat_messages order by room_id, created_at desc, id desc`;
  await seedThreadWords(sql);
  // As autovacuum would after a bulk load: statistics, and the GIN pending lists merged.
  await sql`vacuum analyze`;
  console.log(`filled in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
}

try {
  const [{ count }] = await sql`select count(*)::int as count from chat_messages`;
  if (!reuse || count < MESSAGES) await fill();
  const [counts] = await sql`select (select count(*)::int from chat_threads) as threads, (select count(*)::int from chat_messages) as messages`;
  const [staff] = await sql`select id from users where email = 'bench-staff-1@bench.test'`;
  const viewerId = staff!.id as string;
  const [sample] = await sql`select message from chat_messages order by id limit 1`;
  const words = String(sample!.message).split(" ");
  const common = words[2]!;
  const rare = words.find((w) => w.startsWith("rare"))!;
  const results = [
    await timeRuns("first page (all threads, latest first)", RUNS, () => listThreads({ viewerId })),
    await timeRuns("unassigned", RUNS, () => listThreads({ filter: "unassigned", viewerId })),
    await timeRuns("mine", RUNS, () => listThreads({ filter: "mine", viewerId })),
    await timeRuns("closed, page 3", RUNS, () => listThreads({ filter: "closed", page: 3, viewerId })),
    await timeRuns('search by name ("customer 4242")', RUNS, () => listThreads({ search: "customer 4242", viewerId })),
    await timeRuns('search by e-mail ("customer777@")', RUNS, () => listThreads({ search: "customer777@", viewerId })),
    await timeRuns(`search by a rare word ("${rare}")`, RUNS, () => listThreads({ search: rare, viewerId })),
    await timeRuns(`search by a word prefix ("${rare.slice(0, -1)}")`, RUNS, () => listThreads({ search: rare.slice(0, -1), viewerId })),
    await timeRuns(`search by an everyday word in most threads ("${common}")`, RUNS, () => listThreads({ search: common, viewerId })),
  ];
  console.log(`\n${counts!.threads.toLocaleString("en-US")} threads, ${counts!.messages.toLocaleString("en-US")} messages; ${RUNS} runs each (ms):`);
  console.table(results);
  const worst = Math.max(...results.map((r) => r.p95));
  console.log(`worst p95 ${worst} ms (target < 50 ms): ${worst < 50 ? "met" : "NOT met"}`);
} finally {
  await sql.end();
  await database.close();
  await bench.close();
}
