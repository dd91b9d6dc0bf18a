import { and, asc, desc, eq, sql, type AnyColumn, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";

import { db, schema, type Tx } from "~/utils/db.server";

import { clientOfAccount } from "./clients.server";
import { allWords, searchWords, threadHasWords, threadsFound } from "./inbox.server";

/*
 * The staff search (docs/decisions/191-staff-search.md): customers, orders,
 * conversations and services matching the words typed, each through its text-search GIN index,
 * never a scan of the table. Words are prefixes taken literally (inbox.server.ts `searchWords`):
 * "nor fie" finds Nora Field, "bl-3f2a" the order with receipt number BL-3F2A….
 *
 * Customers, orders and conversations are each read in two steps. First the newest rows (WINDOW),
 * walked down their date index, are checked against the words: a word common enough to match
 * `limit` of them is answered there (a bounded read, however many rows match in all). Otherwise
 * the word is rare enough that its GIN index finds few rows, and that read, with its plan pinned
 * (inSearchTransaction), answers. Both steps order newest first, so they return the same rows.
 * The thread read goes through inbox_thread_search() (migration 0007), the inbox's own.
 */

const u = schema.users;
const o = schema.orders;
const t = schema.chatThreads;
const s = schema.services;
const m = schema.chatMessages;
const threadCustomer = alias(schema.users, "thread_customer");

/**
 * The indexed documents: each expression is its index's own (db/schema), so the planner can use it;
 * the first step (newestStatements) builds the same documents from its rows.
 */
const nameDocument = (name: AnyColumn, email: AnyColumn) => sql`to_tsvector('simple', ${name} || ' ' || ${email})`;
const orderDocumentOf = (name: AnyColumn, email: AnyColumn, id: AnyColumn) =>
  sql`to_tsvector('simple', ${name} || ' ' || ${email} || ' bl-' || left(${id}::text, 8))`;
const userDocument = nameDocument(u.name, u.email);
const orderDocument = orderDocumentOf(o.name, o.email, o.id);
const serviceDocument = sql`to_tsvector('simple', ${s.name} || ' ' || coalesce(${s.description}, ''))`;

/** What each kind of hit shows: read alike by both steps (the first step through its newest rows). */
const customerFields = { id: u.id, name: u.name, email: u.email, disabled: u.disabledAt };
const orderFields = { id: o.id, name: o.name, email: o.email, status: o.status, totalCents: o.totalCents, currency: o.currency, createdAt: o.createdAt };
const threadFields = { id: t.id, customerId: t.customerId, visitorName: t.visitorName, visitorEmail: t.visitorEmail, status: t.status };
// A thread's key is its client's id (decision 283): its client is joined by that key.
const threadJoined = { customerName: threadCustomer.name, customerEmail: threadCustomer.email, clientName: schema.clients.name, lastMessage: m.message };

/** A customer hit's client (its id and name; the account's own for a client of one), joined into the same read. */
function customerClient(accountId: AnyColumn, accountName: AnyColumn) {
  const client = clientOfAccount(accountId);
  return { fields: { clientId: client.id, clientName: client.name(accountName) }, membership: client.membership, client: client.client };
}

/** The same fields, read from a subquery that selected them. */
function fieldsOf<S, K extends keyof S>(subquery: S, fields: Record<K, unknown>): Pick<S, K> {
  return Object.fromEntries(Object.keys(fields).map((key) => [key, subquery[key as K]])) as Pick<S, K>;
}

/** A service's three packages, each with a hidden row named after it ("Social Media Audit (Growth)"), and itself. */
const HIDDEN_PER_SERVICE = 4;
const isHidden = (slug: string) => slug.startsWith("package-") || slug.startsWith("plan-");

/** A search's words: all together (`q`), and each on its own (`words`, for the threads' pages of words). */
interface Search {
  q: SQL;
  words: readonly string[];
}

function statements(tx: Tx, { q, words }: Search, limit: number) {
  const client = customerClient(u.id, u.name);
  return {
    customers: tx
      .select({ ...customerFields, ...client.fields })
      .from(u)
      .leftJoin(...client.membership)
      .leftJoin(...client.client)
      .where(and(eq(u.role, "user"), sql`${userDocument} @@ ${q}`))
      .orderBy(desc(u.createdAt), desc(u.id))
      .limit(limit),
    orders: tx
      .select(orderFields)
      .from(o)
      .where(sql`${orderDocument} @@ ${q}`)
      .orderBy(desc(o.createdAt), desc(o.id))
      .limit(limit),
    threads: tx
      .select({ ...threadFields, ...threadJoined })
      .from(t)
      .leftJoin(threadCustomer, eq(threadCustomer.id, t.customerId))
      .leftJoin(schema.clients, eq(schema.clients.id, t.customerId))
      .leftJoin(m, eq(m.id, t.lastMessageId))
      .where(sql`${t.id} in (${threadsFound(words)})`)
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

/**
 * How many of the newest rows the first step checks: the step costs every search that time (1,000
 * names measured 4–8 ms), and a word it cannot answer matches fewer than 5 in that many rows, so
 * its GIN read sorts under 1 % of the rows. Customers and orders: 500 (a word in at least 1 row of
 * 100 is answered there). Conversations check fewer: each word is looked for on the conversation's
 * pages of words (decision 337), which hold all its messages' words, so a conversation costs many
 * times a name, and a word in a message is in many conversations (the bench's everyday word: in
 * 63 % of them).
 */
const WINDOW = { customers: 500, orders: 500, threads: 100 } as const;

/** The first step: the newest rows (WINDOW) down their date index, those matching, newest first. */
function newestStatements(tx: Tx, { q, words }: Search, limit: number) {
  const customers = tx
    .select({ ...customerFields, createdAt: u.createdAt })
    .from(u)
    .where(eq(u.role, "user"))
    .orderBy(desc(u.createdAt), desc(u.id))
    .limit(WINDOW.customers)
    .as("newest_customers");
  const orders = tx.select(orderFields).from(o).orderBy(desc(o.createdAt), desc(o.id)).limit(WINDOW.orders).as("newest_orders");
  const threads = tx
    .select({
      ...threadFields,
      lastMessageId: t.lastMessageId,
      lastMessageAt: t.lastMessageAt,
      searchDocument: t.searchDocument,
    })
    .from(t)
    .orderBy(sql`${t.lastMessageAt} desc nulls last`, desc(t.id))
    .limit(WINDOW.threads)
    .as("newest_threads");
  const client = customerClient(customers.id, customers.name);
  return {
    customers: tx
      .select({ ...fieldsOf(customers, customerFields), ...client.fields })
      .from(customers)
      .leftJoin(...client.membership)
      .leftJoin(...client.client)
      .where(sql`${nameDocument(customers.name, customers.email)} @@ ${q}`)
      .orderBy(desc(customers.createdAt), desc(customers.id))
      .limit(limit),
    orders: tx
      .select(fieldsOf(orders, orderFields))
      .from(orders)
      .where(sql`${orderDocumentOf(orders.name, orders.email, orders.id)} @@ ${q}`)
      .orderBy(desc(orders.createdAt), desc(orders.id))
      .limit(limit),
    threads: tx
      .select({ ...fieldsOf(threads, threadFields), ...threadJoined })
      .from(threads)
      .leftJoin(threadCustomer, eq(threadCustomer.id, threads.customerId))
      .leftJoin(schema.clients, eq(schema.clients.id, threads.customerId))
      .leftJoin(m, eq(m.id, threads.lastMessageId))
      // As inbox_thread_search(): the conversation's words, or its customer's name and e-mail.
      .where(sql`((${threadHasWords(threads.id, threads.searchDocument, words)}) or ${nameDocument(threadCustomer.name, threadCustomer.email)} @@ ${q})`)
      .orderBy(sql`${threads.lastMessageAt} desc nulls last`, desc(threads.id))
      .limit(limit),
  };
}

type Statements = ReturnType<typeof statements>;
type NewestStatements = ReturnType<typeof newestStatements>;
type Rows = { [K in keyof Statements]: Awaited<Statements[K]> };
export type SearchRows = Omit<Rows, "services"> & { services: Omit<Rows["services"][number], "slug">[] };

const tsquery = (words: string) => sql`${words}::tsquery`;
const searchOf = (words: readonly string[]): Search => ({ q: tsquery(allWords(words)), words });

/**
 * The second step's reads have one good plan: the GIN index finds the matching rows, then the few are sorted.
 * Left alone, the planner walks orders by date (or services by name) and computes every row's
 * document until five match: quick for a common word, a read of the whole table for a rare one,
 * and a whole read of a small table (twelve services). With plain scans and index walks off for
 * this transaction, the bitmap read of the GIN index is the only way in (as inbox_thread_search does).
 */
function pinGinPlans(tx: Tx) {
  // One statement (one round trip): set_config(…, true) is SET LOCAL, until the transaction ends.
  return tx.execute(
    sql`select set_config('enable_seqscan', 'off', true), set_config('enable_indexscan', 'off', true),
      set_config('enable_indexonlyscan', 'off', true), set_config('enable_hashjoin', 'on', true), set_config('enable_mergejoin', 'on', true)`,
  );
}

/**
 * The first step's plan: down the date index, then each of its rows' customer and last message by
 * key. Left alone, a small table's planner reads the joined tables whole instead (a hash join).
 */
function pinNewestPlans(tx: Tx) {
  return tx.execute(
    sql`select set_config('enable_seqscan', 'off', true), set_config('enable_hashjoin', 'off', true),
      set_config('enable_mergejoin', 'off', true), set_config('max_parallel_workers_per_gather', '0', true)`,
  );
}

/** Up to `limit` of each kind matching `text`, newest (or, for services, first in order) first; nothing for text without words. */
export async function searchWorkspace(text: string, limit: number): Promise<SearchRows> {
  const words = searchWords(text);
  if (!words) return { customers: [], orders: [], threads: [], services: [] };
  const search = searchOf(words);
  // Each kind in a transaction of its own (its plans pinned there), side by side on the pool's
  // connections: the four searches take the time of the slowest, not of their sum.
  const twoSteps = <T>(newest: (tx: Tx) => PromiseLike<T[]>, gin: (tx: Tx) => PromiseLike<T[]>) =>
    db.transaction(async (tx) => {
      await pinNewestPlans(tx);
      const rows = await newest(tx);
      if (rows.length === limit) return rows;
      await pinGinPlans(tx);
      return gin(tx);
    });
  const [customers, orders, threads, services] = await Promise.all([
    twoSteps(
      (tx) => newestStatements(tx, search, limit).customers,
      (tx) => statements(tx, search, limit).customers,
    ),
    twoSteps(
      (tx) => newestStatements(tx, search, limit).orders,
      (tx) => statements(tx, search, limit).orders,
    ),
    twoSteps(
      (tx) => newestStatements(tx, search, limit).threads,
      (tx) => statements(tx, search, limit).threads,
    ),
    db.transaction(async (tx) => {
      await pinGinPlans(tx);
      return statements(tx, search, limit).services;
    }),
  ]);
  return { customers, orders, threads, services: services.filter((service) => !isHidden(service.slug)).slice(0, limit) };
}

export type SearchPlans = Record<keyof Statements, string> & { newest: Record<keyof NewestStatements, string> };

/** The plans of every read as the search runs them, both steps (for the EXPLAIN test and the bench). */
export async function explainSearch(text: string, limit: number): Promise<SearchPlans> {
  const search = searchOf(searchWords(text) ?? ["''"]);
  return db.transaction(async (tx) => {
    const explain = async <K extends string>(run: Record<K, { getSQL(): SQL }>) => {
      const plans = {} as Record<K, string>;
      for (const [kind, statement] of Object.entries(run) as [K, { getSQL(): SQL }][])
        plans[kind] = planText(await tx.execute(sql`explain ${statement.getSQL()}`));
      return plans;
    };
    await pinNewestPlans(tx);
    const newest = await explain(newestStatements(tx, search, limit));
    await pinGinPlans(tx);
    return { ...(await explain(statements(tx, search, limit))), newest };
  });
}

function planText(result: unknown): string {
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Record<string, string>[];
  return rows.map((row) => row["QUERY PLAN"]).join("\n");
}
