import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";

import { explainSearch, searchWorkspace } from "~/models/search.server";
import { database, db } from "~/utils/db.server";

import { catalogue } from "../support/dashboard-helpers";

/*
 * The staff search never reads a table whole (decision 191): on PostgreSQL with 20,000 customers,
 * 20,000 orders and 4,000 conversations (statistics gathered), EXPLAIN of each of the search's
 * reads, as searchWorkspace runs them, walks the newest rows down a date index (first step) or
 * uses its text-search index (second step) and has no sequential scan,
 * for a rare word, a name, an e-mail, a receipt number and a word in most rows. The thread read
 * goes through inbox_thread_search(), whose own body is explained the same way.
 */

const CUSTOMERS = 20_000;
const THREADS = 4_000;

beforeAll(async () => {
  expect(database.kind).toBe("postgres");
  await catalogue();
  await db.execute(sql`insert into users (email, name, role)
    select 'plan' || i || '@plan.test', 'Plan Customer' || i || ' ' || (array['Avery','Brooks','Carter','Diaz'])[1 + i % 4], 'user'
    from generate_series(1, ${CUSTOMERS}::int) i`);
  await db.execute(sql`insert into orders (email, name, user_id, status, total_cents, created_at)
    select u.email, u.name, u.id, 'paid', 1000, now() - (row_number() over ()) * interval '1 minute' from users u where u.email like '%@plan.test'`);
  await db.execute(sql`insert into chat_threads (room_id, customer_id, last_message_at)
    select 'support-' || u.id, u.id, now() from users u where u.email like '%@plan.test' limit ${THREADS}::int`);
  // Two pages of words a conversation: "calendar" on the first, a rare word on the second.
  await db.execute(sql`insert into chat_thread_words (thread_id, page, document)
    select t.id, p.page, to_tsvector('simple', case when p.page = 0 then 'hello calendar word' || (abs(hashint4(length(u.email))) % 50) else 'rare' || u.email end)
    from chat_threads t join users u on u.id = t.customer_id cross join generate_series(0, 1) as p(page)`);
  await db.execute(sql`analyze`);
}, 120_000);

const QUERIES = [
  ["a rare word", "plan1234@plan"],
  ["a name", "plan customer4242"],
  ["a word in most rows", "avery"],
  ["a receipt number", "BL-0"],
  ["a message word", "calendar"],
  ["a service", "social media"],
] as const;

describe("the staff search's plans on PostgreSQL", () => {
  test.each(QUERIES)("%s (%s): the newest rows through their date index, then each GIN index, no sequential scan", async (_, q) => {
    const { newest, ...plans } = await explainSearch(q, 5);
    for (const [kind, plan] of Object.entries({ ...plans, ...newest })) expect(plan, `${kind}:\n${plan}`).not.toMatch(/Seq Scan/);
    expect(newest.customers).toContain("users_role_created_idx");
    expect(newest.orders).toContain("orders_created_idx");
    expect(newest.threads).toContain("chat_threads_latest_idx");
    expect(plans.customers).toContain("users_search_idx");
    expect(plans.orders).toContain("orders_search_idx");
    expect(plans.services).toContain("services_search_idx");
    expect(plans.threads).toContain("inbox_thread_search");
  });

  test("inbox_thread_search()'s body reads the pages of words, the visitor documents and the accounts through their GIN indexes", async () => {
    const [fn] = (await db.execute(sql`select prosrc from pg_proc where proname = 'inbox_thread_search'`)) as unknown as { prosrc: string }[];
    const body = fn!.prosrc
      .replace(/\bwords\b/g, `array['''calendar'':*'::tsquery, '''rare'':*'::tsquery]`)
      .replace(/\bq\b/g, `'''calendar'':* & ''rare'':*'::tsquery`);
    const plan = await db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      const rows = (await tx.execute(sql.raw(`explain ${body}`))) as unknown as Record<string, string>[];
      return rows.map((row) => row["QUERY PLAN"]).join("\n");
    });
    expect(plan).not.toMatch(/Seq Scan/);
    expect(plan).toContain("chat_thread_words_document_idx");
    expect(plan).toContain("chat_threads_search_idx");
    expect(plan).toContain("users_search_idx");
  });

  test("a word in a quarter of the rows is answered from the newest rows: the same rows the GIN read finds", async () => {
    const found = await searchWorkspace("avery", 5);
    const customers = (await db.execute(sql`select name from users where role = 'user' and to_tsvector('simple', name || ' ' || email) @@ 'avery:*'::tsquery
      order by created_at desc, id desc limit 5`)) as unknown as { name: string }[];
    const orders =
      (await db.execute(sql`select id from orders where to_tsvector('simple', name || ' ' || email || ' bl-' || left(id::text, 8)) @@ 'avery:*'::tsquery
      order by created_at desc, id desc limit 5`)) as unknown as { id: string }[];
    expect(customers).toHaveLength(5);
    expect(found.customers.map((c) => c.name)).toEqual(customers.map((c) => c.name));
    expect(found.orders.map((o) => o.id)).toEqual(orders.map((o) => o.id));
    // Every conversation has "calendar": the five newest, newest first.
    const threads = (await db.execute(sql`select id from chat_threads t
      where exists (select 1 from chat_thread_words p where p.thread_id = t.id and p.document @@ 'calendar:*'::tsquery)
      order by last_message_at desc nulls last, id desc limit 5`)) as unknown as { id: string }[];
    expect((await searchWorkspace("calendar", 5)).threads.map((t) => t.id)).toEqual(threads.map((t) => t.id));
  });

  test("and the search answers from them: a name among 20,000", async () => {
    const found = await searchWorkspace("plan customer4242", 5);
    expect(found.customers.map((c) => c.name)).toEqual(["Plan Customer4242 Carter"]);
    expect(found.orders.map((o) => o.name)).toEqual(["Plan Customer4242 Carter"]);
  });
});
