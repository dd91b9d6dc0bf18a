import { asc, eq } from "drizzle-orm";

import { isUuid, withWireId } from "~/domain/ids";
import type { SavedReply } from "~/domain/inbox";
import type { SavedReplyJson } from "~/domain/schemas/workspace";
import { db, schema } from "~/utils/db.server";
import { notFound } from "~/utils/http.server";

/** The team's saved replies: shared by all staff, inserted from the composer. */

const r = schema.savedReplies;
/** The API's edge: a reply with its id as `_id` (docs/api.md). */
export const toSavedReplyJson = (reply: SavedReply): SavedReplyJson => withWireId(reply);

export async function listSavedReplies(): Promise<SavedReply[]> {
  return db.select({ id: r.id, title: r.title, body: r.body }).from(r).orderBy(asc(r.title), asc(r.id)).limit(500);
}

export async function createSavedReply(author: { id: string }, input: { title: string; body: string }): Promise<SavedReply> {
  const [row] = await db.insert(r).values({ title: input.title, body: input.body, createdBy: author.id }).returning({ id: r.id, title: r.title, body: r.body });
  return row;
}

/** 404 when there is no such reply (also for an id that is no UUID). */
export async function deleteSavedReply(id: string): Promise<void> {
  if (!isUuid(id)) throw notFound("Saved reply not found.");
  const deleted = await db.delete(r).where(eq(r.id, id)).returning({ id: r.id });
  if (deleted.length === 0) throw notFound("Saved reply not found.");
}
