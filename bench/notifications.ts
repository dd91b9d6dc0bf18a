/**
 * The bell at scale (docs/decisions/289, 290): 1,000,000 notifications over 10,000 people on
 * PostgreSQL, then the bell's two queries as the app runs them (the unread count, the first page,
 * a page further back by the cursor, the unread-only page) for a person with many, and one morning
 * digest for everyone due, with the process's peak memory. Target: p95 < 20 ms per query; the
 * digest's memory flat (it pages people 500 at a time).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/notifications.ts [--people 10000] [--notifications 1000000] [--runs 200] [--keep]
 *
 * It creates (and, without --keep, drops) its own database `<name>_notifications_bench` on that server.
 */
import { parseArgs } from "node:util";
import postgres from "postgres";

import { namedBenchDatabase, timeRuns, writeResult } from "./support";

const { values: args } = parseArgs({
  options: {
    people: { type: "string", default: "10000" },
    notifications: { type: "string", default: "1000000" },
    runs: { type: "string", default: "200" },
    keep: { type: "boolean", default: false },
  },
});
const PEOPLE = Number(args.people);
const NOTIFICATIONS = Number(args.notifications);
const RUNS = Number(args.runs);

const bench = await namedBenchDatabase("notifications_bench", args.keep);
process.env.DATABASE_URL = bench.url;
const { database } = await import("../app/utils/db.server");
const { listNotifications, sendDueDigests, unreadCount } = await import("../app/models/notifications.server");
await database.migrate();
const sql = postgres(bench.url, { max: 1, onnotice: () => {} });

async function fill() {
  const t0 = performance.now();
  await sql`truncate users, notifications, notification_settings cascade`;
  await sql`insert into users (email, name, role, time_zone)
    select 'person' || i || '@bench.test', 'Person ' || i, case when i % 50 = 0 then 'team' else 'user' end,
      (array['UTC','Europe/Paris','America/New_York','Asia/Tokyo','Australia/Sydney'])[1 + i % 5]
    from generate_series(1, ${PEOPLE}::int) i`;
  await sql`create temporary table bench_people as select row_number() over (order by id) as n, id from users`;
  // One person in a hundred gets a tenth of everything (the busiest staff member's bell); the rest spread evenly.
  const perBatch = 100_000;
  for (let done = 0; done < NOTIFICATIONS; done += perBatch) {
    await sql`insert into notifications (user_id, kind, title, body, url, read_at, created_at, email)
      select p.id, (array['message','post_review','post_overdue','post_decided','brief_needed','report_ready','billing','order'])[1 + m.i % 8],
        'Notification ' || m.i, 'Something happened', '/dashboard',
        case when m.i % 4 = 0 then null else now() - interval '1 day' end,
        now() - interval '90 days' + (m.i * interval '7 seconds'),
        case when m.i % 10 = 0 then 'daily' else 'instant' end
      from generate_series(${done + 1}::int, ${Math.min(done + perBatch, NOTIFICATIONS)}::int) m(i)
      join bench_people p on p.n = case when m.i % 10 = 0 then 1 else 1 + (abs(hashint4(m.i)) % ${PEOPLE}::int) end`;
    process.stdout.write(`\r${Math.min(done + perBatch, NOTIFICATIONS).toLocaleString("en-US")} notifications`);
  }
  console.log();
  // Daily items from before today's digest were carried by earlier digests: only the last day's wait.
  await sql`update notifications set digested_at = created_at where email = 'daily' and created_at < now() - interval '1 day'`;
  await sql`vacuum analyze`;
  console.log(`filled in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
}

try {
  const [{ count }] = await sql`select count(*)::int as count from notifications`;
  if (!bench.reused || count < NOTIFICATIONS) await fill();
  const [busiest] = await sql`select user_id as id, count(*)::int as count from notifications group by user_id order by count(*) desc limit 1`;
  const [typical] = await sql`select id from users where email = 'person5000@bench.test'`;
  const userId = busiest!.id as string;
  const page = await listNotifications(userId);
  const deep = page.at(-1)!;
  const results = [
    await timeRuns(`unread count (busiest: ${busiest!.count.toLocaleString("en-US")} notifications)`, RUNS, () => unreadCount(userId)),
    await timeRuns("first page (busiest)", RUNS, () => listNotifications(userId)),
    await timeRuns("second page by the cursor (busiest)", RUNS, () =>
      listNotifications(userId, { before: { createdAt: new Date(deep.createdAt), id: deep._id } }),
    ),
    await timeRuns("unread only (busiest)", RUNS, () => listNotifications(userId, { unread: true })),
    await timeRuns("unread count (typical)", RUNS, () => unreadCount(typical!.id as string)),
    await timeRuns("first page (typical)", RUNS, () => listNotifications(typical!.id as string)),
  ];
  console.table(results);
  const worst = Math.max(...results.map((r) => r.p95));
  console.log(`worst p95 ${worst} ms (target < 20 ms): ${worst < 20 ? "met" : "NOT met"}`);

  // One digest round for everyone: at 08:00 UTC every UTC person is due.
  const rssBefore = process.memoryUsage().rss;
  let peak = rssBefore;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const t0 = performance.now();
  const now = new Date();
  now.setUTCHours(8, 30, 0, 0);
  const sent = await sendDueDigests(now);
  clearInterval(timer);
  const digest = { sent, seconds: Number(((performance.now() - t0) / 1000).toFixed(1)), rssGrowthMb: Number(((peak - rssBefore) / 1e6).toFixed(1)) };
  console.log("digest round:", digest);
  writeResult("notifications", { results, digest });
} finally {
  await sql.end();
  await database.close();
  await bench.close();
}
