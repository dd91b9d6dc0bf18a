import { and, asc, desc, eq, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";

import { db, schema, type Tx } from "~/utils/db.server";

import { searchQuery } from "./inbox.server";

/*
 * The staff search (issue 23.6, docs/decisions/191-staff-search.md): customers, orders,
 * conversations and services matching the words typed, each through its text-search GIN index,
 * never a scan of the table. Words are prefixes taken literally (inbox.server.ts `searchQuery`):
 * "nor fie" finds Nora Field, "bl-3f2a" the order with receipt number BL-3F2A….
 *
 * The four reads run in one transaction that pins their plans (inSearchTransaction), so they stay
 * those the EXPLAIN test checks at any size. The thread read goes through inbox_thread_search()
 * (migration 0007), the inbox's own.
 */

const u = schema.users;
const o = schema.orders;
const t = schema.chatThreads;
const s = schema.services;
const m = schema.chatMessages;
const threadCustomer = alias(schema.users, "thread_customer");

/** The indexed documents: each expression is its index's own (db/schema), so the planner can use it. */
const userDocument = sql`to_tsvector('simple', ${u.name} || ' ' || ${u.email})`;
const orderDocument = sql`to_tsvector('simple', ${o.name} || ' ' || ${o.email} || ' bl-' || left(${o.id}::text, 8))`;
const serviceDocument = sql`to_tsvector('simple', ${s.name} || ' ' || coalesce(${s.description}, ''))`;

/** A service's three packages, each with a hidden row named after it ("Social Media Audit (Growth)"), and itself. */
const HIDDEN_PER_SERVICE = 4;
const isHidden = (slug: string) => slug.startsWith("package-") || slug.startsWith("plan-");

function statements(tx: Tx, q: SQL, limit: number) {
  return {
    customers: tx
      .select({ id: u.id, name: u.name, email: u.email, disabled: u.disabledAt })
      .from(u)
      .where(and(eq(u.role, "user"), sql`${userDocument} @@ ${q}`))
      .orderBy(desc(u.createdAt), desc(u.id))
      .limit(limit),
    orders: tx
      .select({ id: o.id, name: o.name, email: o.email, status: o.status, totalCents: o.totalCents, currency: o.currency, createdAt: o.createdAt })
      .from(o)
      .where(sql`${orderDocument} @@ ${q}`)
      .orderBy(desc(o.createdAt), desc(o.id))
      .limit(limit),
    threads: tx
      .select({
        id: t.id,
        customerId: t.customerId,
        visitorName: t.visitorName,
        visitorEmail: t.visitorEmail,
        status: t.status,
        customerName: threadCustomer.name,
        customerEmail: threadCustomer.email,
        lastMessage: m.message,
      })
      .from(t)
      .leftJoin(threadCustomer, eq(threadCustomer.id, t.customerId))
      .leftJoin(m, eq(m.id, t.lastMessageId))
      .where(sql`${t.id} in (select found from inbox_thread_search(${q}) as found)`)
      .orderBy(sql`${t.lastMessageAt} desc nulls last`, desc(t.id))
      .limit(limit),
    // The hidden rows behind packages and plans (slugs package-…, plan-…) are left out after the
    // read: a condition on the slug would let the planner read the listed services' name index whole.
    services: tx
      .select({ id: s.id, slug: s.slug, name: s.name, priceCents: s.priceCents, currency: s.currency, active: s.active })
      .from(s)
      .where(sql`${serviceDocument} @@ ${q}`)
      .orderBy(asc(s.sortOrder), asc(s.name))
      .limit(limit * HIDDEN_PER_SERVICE),
  };
}

type Statements = ReturnType<typeof statements>;
type Rows = { [K in keyof Statements]: Awaited<Statements[K]> };
export type SearchRows = Omit<Rows, "services"> & { services: Omit<Rows["services"][number], "slug">[] };

const tsquery = (words: string) => sql`${words}::tsquery`;

/**
 * Each read has one good plan: the GIN index finds the matching rows, then the few are sorted.
 * Left alone, the planner walks orders by date (or services by name) and computes every row's
 * document until five match: quick for a common word, a read of the whole table for a rare one,
 * and a whole read of a small table (twelve services). With plain scans and index walks off for
 * this transaction, the bitmap read of the GIN index is the only way in (as inbox_thread_search does).
 */
function inSearchTransaction<T>(run: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    // One statement (one round trip): set_config(…, true) is SET LOCAL.
    await tx.execute(
      sql`select set_config('enable_seqscan', 'off', true), set_config('enable_indexscan', 'off', true),
        set_config('enable_indexonlyscan', 'off', true), set_config('max_parallel_workers_per_gather', '0', true)`,
    );
    return run(tx);
  });
}

/** Up to `limit` of each kind matching `text`, newest (or, for services, first in order) first; nothing for text without words. */
export async function searchWorkspace(text: string, limit: number): Promise<SearchRows> {
  const words = searchQuery(text);
  if (!words) return { customers: [], orders: [], threads: [], services: [] };
  return inSearchTransaction(async (tx) => {
    const run = statements(tx, tsquery(words), limit);
    // One connection in a transaction: the reads go one after another.
    const [customers, orders, threads, services] = [await run.customers, await run.orders, await run.threads, await run.services];
    return { customers, orders, threads, services: services.filter((service) => !isHidden(service.slug)).slice(0, limit) };
  });
}

/** The plans of the four reads as the search runs them (for the EXPLAIN test and the bench). */
export async function explainSearch(text: string, limit: number): Promise<Record<keyof Statements, string>> {
  const words = searchQuery(text) ?? "''";
  return inSearchTransaction(async (tx) => {
    const run = statements(tx, tsquery(words), limit);
    const plans = {} as Record<keyof Statements, string>;
    for (const [kind, statement] of Object.entries(run) as [keyof Statements, (typeof run)[keyof Statements]][]) {
      const rows = await tx.execute(sql`explain ${statement.getSQL()}`);
      plans[kind] = planText(rows);
    }
    return plans;
  });
}

function planText(result: unknown): string {
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Record<string, string>[];
  return rows.map((row) => row["QUERY PLAN"]).join("\n");
}
