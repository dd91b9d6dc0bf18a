import fs from "node:fs";
import { eq, sql } from "drizzle-orm";
import { expect, test } from "vitest";

import { supportRoomId } from "~/domain/chat";
import { listThreads } from "~/models/inbox.server";
import { db, schema } from "~/utils/db.server";

/*
 * Migration 0002_inbox builds the thread summary of data written before it (decision 095): messages
 * stored without a summary and old contact-form messages become threads with the right last
 * message and unread counts (decision 050's rules), then 0007 gives them their search documents,
 * which 0034 moves to their first page of words (decision 337), leaving a visitor's name and address.
 * Here the data is written the old way and the migrations' backfill statements run again.
 */

function backfillStatements() {
  const inbox = fs.readFileSync("db/migrations/0002_inbox.sql", "utf8").split("--> statement-breakpoint");
  const from = inbox.findIndex((s) => s.includes("-- Backfill 1"));
  const to = inbox.findIndex((s) => s.includes("CREATE OR REPLACE FUNCTION"));
  const search = fs
    .readFileSync("db/migrations/0007_inbox_search.sql", "utf8")
    .split("--> statement-breakpoint")
    .filter((s) => s.includes('UPDATE "chat_threads"'));
  const pages = fs
    .readFileSync("db/migrations/0034_thread_word_pages.sql", "utf8")
    .split("--> statement-breakpoint")
    .filter((s) => s.includes('INSERT INTO "chat_thread_words"') || s.includes('UPDATE "chat_threads"'));
  expect(pages).toHaveLength(2);
  return [...inbox.slice(from, to), ...search, ...pages].map((s) => s.trim()).filter(Boolean);
}

test("existing messages and contact-form messages get their thread summaries", async () => {
  const [customer, staff, other] = await db
    .insert(schema.users)
    .values([
      { email: "legacy-customer@old.test", name: "Lena Legacy", role: "user" },
      { email: "legacy-staff@old.test", name: "Stu Staff", role: "team" },
      { email: "legacy-other@old.test", name: "Otto Other", role: "user" },
    ])
    .returning();
  const at = (minutes: number) => new Date(Date.UTC(2026, 0, 1, 12, minutes));
  const room = supportRoomId(customer!.id);
  const legacy = (roomId: string, senderId: string, customerId: string, message: string, minute: number) => ({
    roomId,
    senderId,
    customerId,
    message,
    createdAt: at(minute),
  });
  await db
    .insert(schema.chatMessages)
    .values([
      legacy(room, customer!.id, customer!.id, "first question", 1),
      legacy(room, staff!.id, customer!.id, "an answer", 2),
      legacy(room, customer!.id, customer!.id, "follow-up one", 3),
      legacy(room, customer!.id, customer!.id, "follow-up two about invoices", 4),
      legacy(supportRoomId(other!.id), other!.id, other!.id, "hello", 5),
    ]);
  // Otto's thread was read by staff after his message; Lena read the answer.
  await db.insert(schema.chatReadPositions).values([
    { userId: staff!.id, roomId: supportRoomId(other!.id), lastReadAt: at(6) },
    { userId: customer!.id, roomId: room, lastReadAt: at(3) },
  ]);
  await db.insert(schema.contactMessages).values([
    { email: "Walter.Web@old.test", firstName: "Walter", lastName: "Web", message: "Can you call me?", createdAt: at(7) },
    { email: "legacy-other@old.test", message: "Sent from the website too", createdAt: at(8) },
  ]);
  // Written before the summary existed: no thread rows.
  await db.delete(schema.chatThreads);

  for (const statement of backfillStatements()) await db.execute(sql.raw(statement));

  const threads = await db.select().from(schema.chatThreads);
  const byRoom = new Map(threads.map((t) => [t.roomId, t]));
  expect(byRoom.get(room)).toMatchObject({ customerId: customer!.id, teamUnread: 2, customerUnread: 0, status: "open" });
  const [lastOfLena] = await db
    .select()
    .from(schema.chatMessages)
    .where(eq(schema.chatMessages.id, byRoom.get(room)!.lastMessageId!));
  expect(lastOfLena!.message).toBe("follow-up two about invoices");
  // Otto: his old message was read, the contact-form one (into his own thread) was not.
  expect(byRoom.get(supportRoomId(other!.id))).toMatchObject({ teamUnread: 1 });
  const walter = threads.find((t) => t.visitorEmail === "walter.web@old.test");
  expect(walter).toMatchObject({ customerId: null, visitorName: "Walter Web", teamUnread: 1 });

  const found = await listThreads({ search: "invoices" });
  expect(found.threads.map((t) => t.customer._id)).toEqual([customer!.id]);
  expect((await listThreads({ search: "walter" })).threads.map((t) => t.kind)).toEqual(["visitor"]);
  // Words of the messages on the first page, a visitor's name and address on the thread itself, both found together.
  expect((await listThreads({ search: "walter call" })).threads.map((t) => t.kind)).toEqual(["visitor"]);
  const pageOfLena = await db
    .select()
    .from(schema.chatThreadWords)
    .where(eq(schema.chatThreadWords.threadId, byRoom.get(room)!.id));
  expect(pageOfLena.map((p) => p.page)).toEqual([0]);
  expect(byRoom.get(room)!.searchDocument).toBe("");
});
