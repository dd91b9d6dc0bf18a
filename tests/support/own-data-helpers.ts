import { eq } from "drizzle-orm";
import { expect } from "vitest";

import { supportRoomId } from "~/domain/chat";
import * as accountApi from "~/routes/api+/account+/_layout";
import { db, schema } from "~/utils/db.server";
import { putBuffer } from "~/utils/storage.server";

import { upload } from "./chat-attachment-helpers";
import { call, readJson } from "./dashboard-helpers";
import { catalogue, createAccount, createPurchase, unique, type Account } from "./factories";
import { samples } from "./reports-cases";

/** A customer with what "your own data" covers: a paid order, messages, a sent chat file, a report file and calendar posts. */

export const OWNER_PASSWORD = "correct-horse-battery";

export async function customerWithData() {
  const account = await createAccount({ role: "user", password: OWNER_PASSWORD, name: "Dana Owner" });
  const [service] = await catalogue();
  const { order, purchase } = await createPurchase(account.id, service!);
  await db.update(schema.orders).set({ email: account.email, name: account.name }).where(eq(schema.orders.id, order.id));

  const uploaded = await upload(account, "photo.png");
  expect(uploaded.status).toBe(201);
  const attachmentId = (await readJson<{ data: { attachment: { _id: string } } }>(uploaded)).data.attachment._id;
  const room = supportRoomId(account.id);
  // Their own times, a second apart: two rows written in one clock tick would come back in id order.
  const sentAt = Date.now() - 60_000;
  const [text] = await db
    .insert(schema.chatMessages)
    .values({ roomId: room, senderId: account.id, customerId: account.id, message: "Hello, here is our logo.", createdAt: new Date(sentAt) })
    .returning();
  const [file] = await db
    .insert(schema.chatMessages)
    .values({ roomId: room, senderId: account.id, customerId: account.id, message: "photo.png", messageType: "file", createdAt: new Date(sentAt + 1000) })
    .returning();
  await db.update(schema.chatAttachments).set({ messageId: file!.id }).where(eq(schema.chatAttachments.id, attachmentId));
  const [attachment] = await db.select().from(schema.chatAttachments).where(eq(schema.chatAttachments.id, attachmentId));

  const reportBytes = samples.pdfOfSize(4096);
  const reportKey = `reports/${unique()}.pdf`;
  await putBuffer(reportKey, reportBytes, "application/pdf");
  const [report] = await db
    .insert(schema.reports)
    .values({
      userId: account.id,
      serviceId: service!.id,
      purchaseId: purchase.id,
      title: "November audit",
      fileName: "audit: november/2026.pdf",
      fileSize: reportBytes.length,
      mimeType: "application/pdf",
      storageKey: reportKey,
    })
    .returning();

  // The content calendar: a post in review with an image, and a draft the customer cannot see yet.
  const [post] = await db
    .insert(schema.posts)
    .values({ customerId: account.id, channel: "instagram", scheduledAt: new Date(Date.now() + 86400_000), caption: "Launch day", status: "in_review" })
    .returning();
  await db.insert(schema.posts).values({ customerId: account.id, channel: "x", scheduledAt: new Date(), caption: "Draft idea", status: "draft" });
  const mediaKey = `posts/${unique()}.png`;
  await putBuffer(mediaKey, samples.png(), "image/png");
  await db
    .insert(schema.postMedia)
    .values({ postId: post!.id, storageKey: mediaKey, fileName: "launch.png", mimeType: "image/png", fileSize: samples.png().length });
  // The purchase's brief, answered; and a staff note on the thread, which is never the customer's to see.
  const [brief] = await db
    .insert(schema.briefs)
    .values({
      purchaseId: purchase.id,
      userId: account.id,
      questions: [{ key: "goal", label: "What is the goal?", kind: "text", required: true }],
      answers: { goal: "More bookings in spring" },
      paidAt: new Date(),
      submittedAt: new Date(),
    })
    .returning();
  await db.insert(schema.threadNotes).values({ customerId: account.id, authorId: null, body: "INTERNAL: slow payer, be firm" });
  return { account, order, purchase, brief: brief!, text: text!, attachmentKey: attachment!.storageKey, report: report!, reportBytes, post: post!, mediaKey };
}

export function deleteAccount(account: Account | { cookie: string }, password: unknown) {
  return call(accountApi.action, "/api/account", {
    auth: account,
    method: "DELETE",
    body: JSON.stringify({ password }),
    headers: { "Content-Type": "application/json" },
  });
}

/** Deletes the scenario's customer and checks every file it had is gone from storage (disk or S3). */
export async function deletionRemovesFiles(scenario: Awaited<ReturnType<typeof customerWithData>>, exists: (key: string) => Promise<boolean>) {
  expect(await exists(scenario.attachmentKey)).toBe(true);
  expect(await exists(scenario.report.storageKey)).toBe(true);
  expect(await exists(scenario.mediaKey)).toBe(true);
  const response = await deleteAccount(scenario.account, OWNER_PASSWORD);
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual({ status: "success" });
  expect(await exists(scenario.attachmentKey)).toBe(false);
  expect(await exists(scenario.report.storageKey)).toBe(false);
  expect(await exists(scenario.mediaKey)).toBe(false);
  expect(await db.select().from(schema.posts).where(eq(schema.posts.customerId, scenario.account.id))).toEqual([]);
  expect(await db.select().from(schema.chatAttachments).where(eq(schema.chatAttachments.uploaderId, scenario.account.id))).toEqual([]);
  expect(await db.select().from(schema.reports).where(eq(schema.reports.userId, scenario.account.id))).toEqual([]);
}
