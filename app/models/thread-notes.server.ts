import { and, asc, eq } from "drizzle-orm";

import { isUuid, withWireId } from "~/domain/ids";
import type { ThreadNote } from "~/domain/inbox";
import type { NoteJson } from "~/domain/schemas/workspace";
import { db, schema } from "~/utils/db.server";
import { notFound } from "~/utils/http.server";

/*
 * Internal notes on a customer's support thread. They live in their own table and
 * are read only here, by staff screens and the staff API: the conversation API, the socket
 * handlers and the e-mails read chat_messages, so a note cannot reach the customer by any of them.
 */

const n = schema.threadNotes;

/** A staff member's note on a customer's thread; 404 when the id is no customer (or no id at all). */
export async function addThreadNote(author: { id: string }, customerId: string, body: string): Promise<ThreadNote> {
  if (!isUuid(customerId)) throw notFound("Conversation not found.");
  const [customer] = await db
    .select({ id: schema.users.id })
    .from(schema.users)
    .where(and(eq(schema.users.id, customerId), eq(schema.users.role, "user")))
    .limit(1);
  if (!customer) throw notFound("Conversation not found.");
  const [row] = await db.insert(n).values({ customerId, authorId: author.id, body }).returning({ id: n.id });
  const [note] = await listThreadNotes(customerId, row.id);
  return note;
}

/** A customer's thread notes, oldest first (they sit between the messages by time). */
export async function listThreadNotes(customerId: string, onlyId?: string): Promise<ThreadNote[]> {
  if (!isUuid(customerId)) return [];
  return (await selectThreadNotes(customerId, onlyId)).map(toThreadNote);
}

/** listThreadNotes as a select not yet run (a page reads it with others: readTogether); the caller checks the id. */
export function selectThreadNotes(customerId: string, onlyId?: string) {
  return db
    .select({ id: n.id, body: n.body, createdAt: n.createdAt, authorId: n.authorId, authorName: schema.users.name })
    .from(n)
    .leftJoin(schema.users, eq(schema.users.id, n.authorId))
    .where(and(eq(n.customerId, customerId), onlyId ? eq(n.id, onlyId) : undefined))
    .orderBy(asc(n.createdAt), asc(n.id))
    .limit(500);
}

/** A row of selectThreadNotes as the screens show it. */
export function toThreadNote(r: Awaited<ReturnType<typeof selectThreadNotes>>[number]): ThreadNote {
  return {
    id: r.id,
    author: r.authorId ? { id: r.authorId, name: r.authorName ?? "" } : null,
    body: r.body,
    createdAt: r.createdAt.toISOString(),
  };
}

/** The API's edge: a note with its ids as `_id` (docs/api.md). */
export function toNoteJson({ author, ...note }: ThreadNote): NoteJson {
  return { ...withWireId(note), author: author && withWireId(author) };
}
