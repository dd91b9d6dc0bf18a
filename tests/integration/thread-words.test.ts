import { asc, eq, sql } from "drizzle-orm";
import { describe, expect, test } from "vitest";

import { supportRoomId } from "~/domain/chat";
import { THREAD_WORDS_PER_PAGE } from "~/domain/inbox";
import { listThreads } from "~/models/inbox.server";
import { searchWorkspace } from "~/models/search.server";
import { db, schema } from "~/utils/db.server";

import { createAccount, postInThread, type Account } from "../support/factories";

/*
 * A thread's words for the inbox search live on pages of a few hundred words (docs/decisions/337):
 * a message adds what the newest page lacks to it, or opens the next page when that one is full,
 * and writes nothing when the newest page has all its words. So a message never rewrites what a
 * thread said before, however long the thread; a search still finds a thread whose words are
 * spread over several pages.
 */

const w = schema.chatThreadWords;
/** Words no other test writes: each message's own, so every message brings new words. */
const fresh = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `${prefix}w${i}`).join(" ");

async function pagesOf(customer: Account) {
  const [thread] = await db
    .select()
    .from(schema.chatThreads)
    .where(eq(schema.chatThreads.roomId, supportRoomId(customer.id)));
  return db
    .select({ page: w.page, words: sql<number>`length(${w.document})`, version: sql<string>`xmin::text`, document: w.document })
    .from(w)
    .where(eq(w.threadId, thread!.id))
    .orderBy(asc(w.page));
}

describe("a thread's pages of words", () => {
  test("a message adds its new words to the newest page, opens the next when it is full, and rewrites no page for words it already has", async () => {
    const customer = await createAccount({ role: "user", name: "Paige Words" });
    const perMessage = 60;
    // Enough new words for more than two full pages.
    const messages = Math.ceil((THREAD_WORDS_PER_PAGE * 2.5) / perMessage);
    for (let i = 0; i < messages; i++) await postInThread(customer, fresh(`pg${i}x`, perMessage));

    const pages = await pagesOf(customer);
    expect(pages.map((p) => p.page)).toEqual([0, 1, 2]);
    for (const full of pages.slice(0, -1)) {
      expect(full.words).toBeGreaterThanOrEqual(THREAD_WORDS_PER_PAGE);
      expect(full.words).toBeLessThan(THREAD_WORDS_PER_PAGE + perMessage);
    }
    expect(pages.reduce((sum, p) => sum + p.words, 0)).toBe(messages * perMessage);

    // Words the newest page has: no page is written.
    await postInThread(customer, fresh(`pg${messages - 1}x`, 10));
    expect(await pagesOf(customer)).toEqual(pages);

    // A new word: the newest page alone is written, with it added.
    await postInThread(customer, "Brandnewword and pg0xw0");
    const after = await pagesOf(customer);
    expect(after.slice(0, -1)).toEqual(pages.slice(0, -1));
    expect(after.at(-1)!.version).not.toBe(pages.at(-1)!.version);
    expect(after.at(-1)!.words).toBe(pages.at(-1)!.words + 3);
  });

  test("a search finds a thread by words on different pages, and only when each word is on one of them", async () => {
    const customer = await createAccount({ role: "user", name: "Sprea Dover" });
    await postInThread(customer, "Quarterlyreport draft attached");
    for (let i = 0; i < Math.ceil(THREAD_WORDS_PER_PAGE / 50) + 1; i++) await postInThread(customer, fresh(`sp${i}x`, 50));
    await postInThread(customer, "Hashtagplan for spring");
    expect((await pagesOf(customer)).length).toBeGreaterThan(1);

    const found = await listThreads({ search: "quarterlyrep hashtagpl" });
    expect(found.threads.map((t) => t.customer._id)).toEqual([customer.id]);
    expect(found.total).toBe(1);
    expect((await searchWorkspace("quarterlyreport hashtagplan", 5)).threads.map((t) => t.id)).toHaveLength(1);
    expect((await listThreads({ search: "quarterlyreport nosuchwordanywhere" })).total).toBe(0);
    // A word with the customer's name: the name is not a message word, and the words are not the name.
    expect((await listThreads({ search: "quarterlyreport dover" })).total).toBe(0);
    expect((await listThreads({ search: "sprea dover" })).threads.map((t) => t.customer._id)).toEqual([customer.id]);
  });

  test("a search's pages: newest thread first, the count of all found on every page, past the last page none", async () => {
    const older = await createAccount({ role: "user", name: "Older Pager" });
    const newer = await createAccount({ role: "user", name: "Newer Pager" });
    await postInThread(older, "Pagingword in the older thread");
    await postInThread(newer, "Pagingword in the newer thread");
    const pageOf = (page: number) => listThreads({ search: "pagingword", limit: 1, page });
    expect(await pageOf(1)).toMatchObject({ total: 2, threads: [expect.objectContaining({ customer: expect.objectContaining({ _id: newer.id }) })] });
    expect(await pageOf(2)).toMatchObject({ total: 2, threads: [expect.objectContaining({ customer: expect.objectContaining({ _id: older.id }) })] });
    expect(await pageOf(3)).toEqual({ total: 2, threads: [] });
    expect(await listThreads({ search: "pagingword", status: "closed" })).toEqual({ total: 0, threads: [] });
  });

  test("messages sent at once into one thread all keep their words", async () => {
    const customer = await createAccount({ role: "user", name: "Con Current" });
    const staff = await createAccount({ role: "team", name: "Con Staff" });
    await postInThread(customer, "first");
    await Promise.all(Array.from({ length: 12 }, (_, i) => postInThread(customer, `Togetherword${i} ${fresh(`cc${i}x`, 40)}`, i % 2 ? staff : customer)));
    for (let i = 0; i < 12; i++) expect((await listThreads({ search: `togetherword${i}` })).total, `togetherword${i}`).toBe(1);
    const pages = await pagesOf(customer);
    expect(pages.reduce((sum, p) => sum + p.words, 0)).toBe(1 + 12 * 41);
  });
});
