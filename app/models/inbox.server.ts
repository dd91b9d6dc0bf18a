import { and, desc, eq, inArray, isNull, sql, type AnyColumn, type SQL } from "drizzle-orm";

import { supportRoomId } from "~/domain/chat";
import { isUuid } from "~/domain/ids";
import { INBOX_PAGE_SIZE, type InboxFilter, type Thread, type ThreadStatus } from "~/domain/inbox";
import { queryRows } from "~/utils/db-cursor.server";
import { db, schema } from "~/utils/db.server";
import { HttpError, notFound } from "~/utils/http.server";

import { recordAudit } from "./audit.server";
import { threadEvents } from "./thread-events.server";
import { threadSelect, toThread } from "./thread-view.server";

/*
 * The support inbox: every thread from its summary row (docs/decisions/095-thread-summary.md),
 * latest message first, with the customer, the assignee and the last message in one query.
 * Visitors' contact-form messages are threads too (docs/decisions/096-visitor-threads.md).
 */

const t = schema.chatThreads;

export interface ThreadQuery {
  status?: ThreadStatus;
  filter?: InboxFilter;
  /** Who "mine" means. */
  viewerId?: string;
  search?: string;
  page?: number;
  limit?: number;
}

/**
 * A search's words, each a text-search query of its own, a prefix taken literally (no parser: an
 * e-mail stays one word): "calend fri" finds "calendar ready on Friday", "nora@ex" finds
 * nora@example.com. All of them must match (joined with `&`); null for a search without words.
 */
export function searchWords(search: string): string[] | null {
  const words = search
    .toLowerCase()
    .split(/\s+/)
    .map((w) => w.replace(/[^\p{L}\p{N}@._+-]/gu, "").replace(/^[._+-]+|[._+-]+$/g, ""))
    .filter(Boolean)
    .slice(0, 8);
  return words.length ? words.map(prefixOf) : null;
}

/** A search's words as one query: every word must match. */
export function allWords(words: readonly string[]): string {
  return words.join(" & ");
}

/**
 * The ids of the threads a search finds, for `in (…)`: through inbox_thread_search() (migration
 * 0034), each word on one of the thread's pages of words or in its visitor document, or all of
 * them in its customer's name and e-mail; every read there through a GIN index.
 */
export function threadsFound(words: readonly string[]): SQL {
  const each = sql.join(
    words.map((word) => sql`${word}::tsquery`),
    sql`, `,
  );
  return sql`select found from inbox_thread_search(${allWords(words)}::tsquery, array[${each}]) as found`;
}

/**
 * Whether a thread has every word of a search, read through the thread's own pages (by key): what
 * inbox_thread_search() finds through the indexes, for threads already in hand.
 */
export function threadHasWords(threadId: AnyColumn, visitorDocument: AnyColumn, words: readonly string[]): SQL {
  return sql.join(
    words.map(
      (word) =>
        sql`(${visitorDocument} @@ ${word}::tsquery or exists (select 1 from chat_thread_words as p where p.thread_id = ${threadId} and p.document @@ ${word}::tsquery))`,
    ),
    sql` and `,
  );
}

/**
 * One word as a prefix. Text search reads "bl-86281334" (a receipt number whose id starts with
 * eight digits) as "bl" and the signed number "-86281334", and "bl-862813ab" as one word: a word
 * ending in a hyphen and digits matches either way.
 */
function prefixOf(word: string): string {
  const signed = /^(.*[^\d-])-(\d+)$/.exec(word);
  return signed ? `('${word}':* | '${signed[1]}':* & '-${signed[2]}':*)` : `'${word}':*`;
}

/** A filter's page of thread ids and how many match: two reads side by side, each down its own index. */
async function filteredPage(where: SQL | undefined, order: SQL[], limit: number, page: number) {
  const [ids, [count]] = await Promise.all([
    db
      .select({ id: t.id })
      .from(t)
      .where(where)
      .orderBy(...order)
      .limit(limit)
      .offset((page - 1) * limit),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(t)
      .where(where),
  ]);
  return { ids, total: count?.total ?? 0 };
}

/**
 * A search's page of thread ids and how many match, in one statement: the threads it finds are
 * looked up once (inbox_thread_search reads every page of words the words are on), then counted
 * and the page taken from them.
 */
async function searchedPage(where: SQL | undefined, limit: number, page: number) {
  const [row] = await queryRows<{ total: number; ids: string | null }>(sql`with found as (
      select ${t.id} as id, ${t.lastMessageAt} as at from ${t} where ${where ?? sql`true`})
    select (select count(*)::int from found) as "total",
      (select string_agg(id::text, ',' order by at desc nulls last, id desc) from (
        select id, at from found order by at desc nulls last, id desc limit ${limit} offset ${(page - 1) * limit}) as shown) as "ids"`);
  return { ids: row?.ids ? row.ids.split(",").map((id) => ({ id })) : [], total: row?.total ?? 0 };
}

/** A page of threads, latest message first, and how many match. */
export async function listThreads(query: ThreadQuery = {}): Promise<{ threads: Thread[]; total: number }> {
  const limit = query.limit ?? INBOX_PAGE_SIZE;
  const page = query.page ?? 1;
  const conditions: SQL[] = [];
  const filter = query.filter ?? "all";
  const status = query.status ?? (filter === "closed" ? "closed" : filter === "all" ? undefined : "open");
  if (status) conditions.push(eq(t.status, status));
  if (filter === "unassigned") conditions.push(isNull(t.assigneeId));
  if (filter === "mine" && query.viewerId) conditions.push(eq(t.assigneeId, query.viewerId));
  const search = query.search?.trim();
  if (search) {
    const words = searchWords(search);
    conditions.push(words ? sql`${t.id} in (${threadsFound(words)})` : sql`false`);
  }
  const where = conditions.length ? and(...conditions) : undefined;
  // The page's ids first (one table, its indexes), then the details of those rows only: a search
  // that matches most threads never joins them all.
  const order = [sql`${t.lastMessageAt} desc nulls last`, desc(t.id)];
  const { ids, total } = search ? await searchedPage(where, limit, page) : await filteredPage(where, order, limit, page);
  const rows = ids.length
    ? await threadSelect()
        .where(
          inArray(
            t.id,
            ids.map((r) => r.id),
          ),
        )
        .orderBy(...order)
    : [];
  return { threads: rows.map(toThread), total };
}

export async function getThreadByRoom(roomId: string): Promise<Thread | null> {
  const [row] = await threadSelect().where(eq(t.roomId, roomId)).limit(1);
  return row ? toThread(row) : null;
}

/** A thread's room, its customer (null: a contact-form visitor) and who they are (saved-reply placeholders). */
export interface ThreadRoom {
  roomId: string;
  customerId: string | null;
  person: { name: string | null; email: string | null };
}

/**
 * The thread a key names: a customer account's id (whose thread is created on first use), or a
 * visitor thread's own id. Null when it names neither.
 */
export async function findThreadRoom(key: string): Promise<ThreadRoom | null> {
  if (!isUuid(key)) return null;
  const [visitor] = await db
    .select({ roomId: t.roomId, name: t.visitorName, email: t.visitorEmail })
    .from(t)
    .where(and(eq(t.id, key), isNull(t.customerId)))
    .limit(1);
  if (visitor) return { roomId: visitor.roomId, customerId: null, person: { name: visitor.name, email: visitor.email } };
  const [account] = await db
    .select({ id: schema.users.id, name: schema.users.name, email: schema.users.email })
    .from(schema.users)
    .where(and(eq(schema.users.id, key), eq(schema.users.role, "user")))
    .limit(1);
  return account ? { roomId: supportRoomId(account.id), customerId: account.id, person: { name: account.name, email: account.email } } : null;
}

export interface ThreadChanges {
  status?: ThreadStatus;
  assigneeId?: string | null;
}

/**
 * Closes, reopens or assigns a thread. Two staff assigning at once: each write is one statement,
 * the last one wins, and both see the result through `threadUpdated`.
 */
export async function updateThread(actor: { id: string }, key: string, changes: ThreadChanges): Promise<Thread> {
  const found = await findThreadRoom(key);
  if (!found) throw notFound("Conversation not found.");
  if (changes.assigneeId) {
    const assigneeId = changes.assigneeId;
    // Not an id at all (a forged form) is refused like an id that is no team member's, before the query.
    const [staff] = isUuid(assigneeId)
      ? await db
          .select({ id: schema.users.id })
          .from(schema.users)
          .where(and(eq(schema.users.id, assigneeId), eq(schema.users.role, "team"), isNull(schema.users.disabledAt)))
          .limit(1)
      : [];
    if (!staff) throw new HttpError(400, "The assignee must be a team member.", "INVALID_INPUT");
  }
  const before = changes.assigneeId !== undefined ? await getThreadByRoom(found.roomId) : null;
  const set = {
    ...(changes.status ? { status: changes.status } : {}),
    ...(changes.assigneeId !== undefined ? { assigneeId: changes.assigneeId } : {}),
    // The write's own time (after any lock wait), so a later change never carries an earlier time.
    updatedAt: sql`clock_timestamp()`,
  };
  if (found.customerId) {
    // A customer's thread may not have a row yet (no message so far): created on first use.
    await db
      .insert(t)
      .values({ roomId: found.roomId, customerId: found.customerId, ...set })
      .onConflictDoUpdate({ target: t.roomId, set });
  } else {
    // A visitor's thread always has its row (it carries their address; the owner check needs it).
    await db.update(t).set(set).where(eq(t.roomId, found.roomId));
  }
  threadEvents.emit("changed", found.roomId);
  const thread = await getThreadByRoom(found.roomId);
  if (!thread) throw notFound("Conversation not found.");
  if (changes.assigneeId !== undefined && (before?.assignee?._id ?? null) !== (thread.assignee?._id ?? null)) {
    await recordAudit({
      actor,
      action: "thread.assign",
      target: { kind: "thread", id: key, label: `Conversation with ${thread.customer.name} (${thread.customer.email})` },
      detail: thread.assignee
        ? `Assigned to ${thread.assignee.name}${before?.assignee ? ` (was ${before.assignee.name})` : ""}`
        : `Unassigned (was ${before?.assignee?.name ?? "nobody"})`,
    });
  }
  return thread;
}

/** Team members who can be assigned a thread. */
export async function listAssignableStaff() {
  return db
    .select({ id: schema.users.id, name: schema.users.name })
    .from(schema.users)
    .where(and(eq(schema.users.role, "team"), isNull(schema.users.disabledAt)))
    .orderBy(schema.users.name);
}

/* Visitors ---------------------------------------------------------------------------------- */

/** The newest message the other side has read in a thread ("Seen" after a reload): for a customer, staff's receipt; for staff, the customer's. */
export async function getOtherSideReceipt(roomId: string, viewer: { role: "user" | "team" }): Promise<string | null> {
  const [row] = await db.select({ team: t.teamReadMessageId, customer: t.customerReadMessageId }).from(t).where(eq(t.roomId, roomId)).limit(1);
  if (!row) return null;
  return viewer.role === "user" ? row.team : row.customer;
}
