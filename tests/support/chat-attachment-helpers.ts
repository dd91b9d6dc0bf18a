import { eq, inArray } from "drizzle-orm";
import { expect } from "vitest";

import { UNSENT_ATTACHMENT_TTL_MS } from "~/domain/attachment-limits";
import { supportRoomId } from "~/domain/chat";
import { removeUnsentAttachments } from "~/models/chat-attachments.server";
import * as attachments from "~/routes/api+/chat+/attachments";
import { db, schema } from "~/utils/db.server";

import { call, readJson } from "./dashboard-helpers";
import type { Account } from "./factories";
import { samples } from "./reports-cases";

/** Chat attachment uploads and the unsent-upload sweep, on whichever storage the file set up. */

export function upload(account: Account, name = "shot.png", bytes = samples.png()) {
  const form = new FormData();
  form.append("roomId", supportRoomId(account.id));
  form.append("file", new Blob([new Uint8Array(bytes)]), name);
  return call(attachments.action, "/api/chat/attachments", { auth: account, method: "POST", body: form });
}

/**
 * Three uploads of one customer: one sent (attached to a message) and one unsent, both made two
 * days ago, and one unsent made an hour ago. The sweep removes only the old unsent one.
 */
export async function sweepScenario(account: Account, exists: (key: string) => Promise<boolean>) {
  const ids: string[] = [];
  for (const name of ["sent.png", "stale.png", "fresh.png"]) {
    const response = await upload(account, name);
    expect(response.status).toBe(201);
    ids.push((await readJson<{ data: { attachment: { _id: string } } }>(response)).data.attachment._id);
  }
  const [sentId, staleId, freshId] = ids as [string, string, string];
  const [message] = await db
    .insert(schema.chatMessages)
    .values({ roomId: supportRoomId(account.id), senderId: account.id, customerId: account.id, message: "sent.png", messageType: "file" })
    .returning();
  const attachments = schema.chatAttachments;
  await db.update(attachments).set({ messageId: message!.id }).where(eq(attachments.id, sentId));
  const twoDaysAgo = new Date(Date.now() - 2 * UNSENT_ATTACHMENT_TTL_MS);
  await db
    .update(attachments)
    .set({ createdAt: twoDaysAgo })
    .where(inArray(attachments.id, [sentId, staleId]));
  await db
    .update(attachments)
    .set({ createdAt: new Date(Date.now() - 60 * 60 * 1000) })
    .where(eq(attachments.id, freshId));
  const rows = await rowsOf(account);
  const keyOf = (id: string) => rows.find((row) => row.id === id)!.storageKey;
  for (const id of ids) expect(await exists(keyOf(id))).toBe(true);

  // Two nodes sweeping at the same moment: each old unsent upload is removed once.
  const counts = await Promise.all([removeUnsentAttachments(), removeUnsentAttachments()]);
  expect(counts.reduce((sum, n) => sum + n, 0)).toBeGreaterThanOrEqual(1);
  expect((await rowsOf(account)).map((row) => row.id).sort()).toEqual([sentId, freshId].sort());
  expect(await exists(keyOf(staleId))).toBe(false);
  expect(await exists(keyOf(sentId))).toBe(true);
  expect(await exists(keyOf(freshId))).toBe(true);
}

export const rowsOf = (account: Account) => db.select().from(schema.chatAttachments).where(eq(schema.chatAttachments.uploaderId, account.id));
