import crypto from "node:crypto";
import { and, asc, eq, inArray, isNull, lt, sql } from "drizzle-orm";

import { ATTACHMENT_LIMIT_MESSAGES, ATTACHMENT_QUOTA_BYTES, UNSENT_ATTACHMENT_TTL_MS } from "~/domain/attachment-limits";
import { attachmentPath, parseRoomId, type ChatAttachment } from "~/domain/chat";
import { isUuid } from "~/domain/ids";
import { ATTACHMENT_MESSAGES, ATTACHMENT_TYPES, MAX_ATTACHMENT_BYTES } from "~/domain/inbox";
import { can, canJoinRoom, type Actor } from "~/domain/permissions";
import { extensionOf } from "~/domain/report";
import { waitPhrase } from "~/domain/wait";
import { db, schema } from "~/utils/db.server";
import { env, sessionSecrets } from "~/utils/env.server";
import { HttpError, notFound } from "~/utils/http.server";
import { logger } from "~/utils/logger.server";
import { consume, limits } from "~/utils/rate-limit.server";
import { putBuffer, storage } from "~/utils/storage.server";
import { startSweep } from "~/utils/sweep.server";

import { contentDisposition } from "./report-links.server";
import { contentMatches, receiveReportUpload, sanitizeFileName, type StoredUpload } from "./report-upload.server";

/*
 * Files sent in a chat: the report upload rules (streamed, 10 MiB counted on the way, extension
 * and magic bytes, the same types) plus gif and webp, stored under `chat/<uuid>.<ext>` through the
 * same storage layer. An attachment belongs to one room; only that room's members may open it
 * (and, before it is sent, only its uploader): at its stable address /files/chat/:id, which asks
 * the session on every request, or through a five-minute signed link for clients without one.
 */

const a = schema.chatAttachments;
const RULES = { types: ATTACHMENT_TYPES, keyPrefix: "chat" };
export const ATTACHMENT_URL_TTL_MS = 5 * 60 * 1000;

export type AttachmentRow = typeof a.$inferSelect;

export const toAttachmentJson = (row: AttachmentRow): ChatAttachment => ({
  _id: row.id,
  fileName: row.fileName,
  mimeType: row.mimeType,
  fileSize: row.fileSize,
});

/** The rooms an actor may send files to: their support thread or a direct room they are in, for a real account. */
async function roomExists(roomId: string) {
  const room = parseRoomId(roomId);
  if (!room) return false;
  const ids = room.kind === "support" ? [room.customerId] : room.members;
  for (const id of ids) {
    const [user] = await db.select({ id: schema.users.id, role: schema.users.role }).from(schema.users).where(eq(schema.users.id, id)).limit(1);
    if (!user || (room.kind === "support" && !can(user, "area:customer"))) return false;
  }
  return true;
}

/**
 * Receives `file` and `roomId`. Someone else's room answers 404 like a missing one, and the
 * stored file is removed before the error leaves; so is a half-received file (a cancelled upload).
 */
export async function receiveAttachment(actor: Actor, request: Request): Promise<AttachmentRow> {
  await checkUploadAllowed(actor.id);
  const upload = await receive(request);
  try {
    const roomId = upload.fields.roomId ?? "";
    if (!roomId) throw new HttpError(400, ATTACHMENT_MESSAGES.roomRequired, "INVALID_INPUT");
    await checkRoom(actor, roomId);
    if (!upload.file) throw new HttpError(400, ATTACHMENT_MESSAGES.file, "FILE_REQUIRED");
    return await recordUpload(actor, roomId, upload.file);
  } catch (error) {
    await upload.discard();
    throw error;
  }
}

/**
 * A message form (the chat without JavaScript): its text fields and, when a file was chosen, that
 * file received for `roomId` under the rules and limits of POST /api/chat/attachments. An upload
 * point is spent only when a file comes. Null `attachment`: no file was chosen.
 */
export async function receiveMessageForm(
  actor: Actor,
  request: Request,
  roomId: string,
): Promise<{ fields: Record<string, string>; attachment: AttachmentRow | null }> {
  const upload = await receive(request, () => checkUploadAllowed(actor.id));
  try {
    if (!upload.file) return { fields: upload.fields, attachment: null };
    await checkRoom(actor, roomId);
    return { fields: upload.fields, attachment: await recordUpload(actor, roomId, upload.file) };
  } catch (error) {
    await upload.discard();
    throw error;
  }
}

/**
 * A file that arrived whole (an e-mailed reply's attachment, docs/decisions/288) kept as the
 * actor's unsent upload to `roomId`, under the same rules and limits as POST /api/chat/attachments:
 * the rate, the type by extension and content, 10 MiB, the quota.
 */
export async function storeAttachmentBuffer(actor: Actor, roomId: string, file: { fileName: string; content: Buffer }): Promise<AttachmentRow> {
  await checkUploadAllowed(actor.id);
  await checkRoom(actor, roomId);
  const fileName = sanitizeFileName(file.fileName) || "attachment";
  const extension = extensionOf(fileName);
  if (file.content.length === 0) throw new HttpError(400, ATTACHMENT_MESSAGES.file, "FILE_REQUIRED");
  if (file.content.length > MAX_ATTACHMENT_BYTES) throw new HttpError(413, ATTACHMENT_MESSAGES.size, "PAYLOAD_TOO_LARGE");
  if (!(await contentMatches(extension, file.content.subarray(0, 4100), ATTACHMENT_TYPES)))
    throw new HttpError(415, ATTACHMENT_MESSAGES.type, "UNSUPPORTED_MEDIA_TYPE");
  const stored: StoredUpload = {
    key: `${RULES.keyPrefix}/${crypto.randomUUID()}.${extension}`,
    fileName,
    size: file.content.length,
    mimeType: ATTACHMENT_TYPES[extension]!,
  };
  await putBuffer(stored.key, file.content, stored.mimeType);
  try {
    return await recordUpload(actor, roomId, stored);
  } catch (error) {
    await storage.delete(stored.key).catch(() => {});
    throw error;
  }
}

/** An upload of the sender's that its message did not take (the message was refused): gone at once, not a day later. */
export async function discardUnsentAttachment(row: Pick<AttachmentRow, "id" | "storageKey">): Promise<void> {
  const deleted = await db
    .delete(a)
    .where(and(eq(a.id, row.id), isNull(a.messageId), isNull(a.briefId)))
    .returning({ id: a.id });
  if (deleted.length > 0)
    await storage.delete(row.storageKey).catch((error: unknown) => logger.warn({ err: error }, "removing a refused chat attachment's file failed"));
}

/** The rate and the quota, before any byte of a file is read. */
async function checkUploadAllowed(uploaderId: string) {
  await consumeUploadPoint(uploaderId);
  if ((await storedBytes(db, uploaderId)) >= ATTACHMENT_QUOTA_BYTES) throw quotaExceeded();
}

/** The multipart body, the file checked as a chat attachment (the report rules' words made the chat's). */
async function receive(request: Request, beforeFile?: () => Promise<void>) {
  try {
    return await receiveReportUpload(request, "file", { ...RULES, beforeFile });
  } catch (error) {
    if (error instanceof HttpError && error.status === 415) throw new HttpError(415, ATTACHMENT_MESSAGES.type, error.code);
    if (error instanceof HttpError && error.code === "FILE_REQUIRED") throw new HttpError(400, ATTACHMENT_MESSAGES.file, error.code);
    throw error;
  }
}

/** Someone else's room answers 404 like a missing one. */
async function checkRoom(actor: Actor, roomId: string) {
  if (!canJoinRoom(actor, roomId) || !(await roomExists(roomId))) throw notFound(ATTACHMENT_MESSAGES.room);
}

/** The stored file's row; the quota summed under the uploader's row lock. */
async function recordUpload(actor: Actor, roomId: string, file: StoredUpload): Promise<AttachmentRow> {
  // The uploader's row is locked while the quota is summed, so two uploads at once cannot both fit.
  return await db.transaction(async (tx) => {
    await tx.select({ id: schema.users.id }).from(schema.users).where(eq(schema.users.id, actor.id)).for("update");
    if ((await storedBytes(tx, actor.id)) + file.size > ATTACHMENT_QUOTA_BYTES) throw quotaExceeded();
    const [row] = await tx
      .insert(a)
      .values({ roomId, uploaderId: actor.id, storageKey: file.key, fileName: file.fileName, mimeType: file.mimeType, fileSize: file.size })
      .returning();
    return row!;
  });
}

type Queryable = Pick<typeof db, "select">;

/** Bytes the account keeps in chat attachments, sent or not. */
async function storedBytes(q: Queryable, uploaderId: string): Promise<number> {
  const [row] = await q
    .select({ bytes: sql<string | null>`sum(${a.fileSize})` })
    .from(a)
    .where(eq(a.uploaderId, uploaderId));
  return Number(row?.bytes ?? 0);
}

const quotaExceeded = () => new HttpError(413, ATTACHMENT_LIMIT_MESSAGES.quota, "QUOTA_EXCEEDED");

/** One upload point per attempt, before any byte is read; past the rate a 429 that says why. */
async function consumeUploadPoint(uploaderId: string) {
  try {
    await consume(limits.chatUpload, uploaderId);
  } catch (error) {
    if (!(error instanceof HttpError) || error.status !== 429) throw error;
    throw new HttpError(429, ATTACHMENT_LIMIT_MESSAGES.rate(waitPhrase(Number(error.headers["Retry-After"]))), error.code, error.headers);
  }
}

/** An attachment the actor may open: a member of its room once it was sent; before that, its uploader. */
export async function getAttachmentFor(actor: Actor, id: string): Promise<AttachmentRow> {
  const row = await findAttachment(id);
  if (!row) throw notFound("Attachment not found.");
  // A file a brief names is the customer's answer: open to their thread's members, like a sent one.
  const allowed =
    row.messageId || row.briefId
      ? canJoinRoom(actor, row.roomId) || (can(actor, "area:team") && row.roomId.startsWith("visitor-"))
      : row.uploaderId === actor.id;
  if (!allowed) throw notFound("Attachment not found.");
  return row;
}

export async function findAttachment(id: string): Promise<AttachmentRow | null> {
  if (!isUuid(id)) return null;
  const [row] = await db.select().from(a).where(eq(a.id, id)).limit(1);
  return row ?? null;
}

export const openAttachmentFile = (row: Pick<AttachmentRow, "storageKey">) => storage.get(row.storageKey);

function sign(secret: string, id: string, expires: number) {
  return crypto.createHmac("sha256", secret).update(`chat-attachment:${id}:${expires}`).digest("base64url");
}

/** A link that works without a header for five minutes (img src, a download in a new tab). */
export function createAttachmentUrl(id: string, now = Date.now()) {
  const expires = now + ATTACHMENT_URL_TTL_MS;
  return `${env.appUrl}${attachmentPath(id)}?${new URLSearchParams({ expires: String(expires), sig: sign(sessionSecrets(env)[0], id, expires) })}`;
}

export function verifyAttachmentSignature(id: string, expiresParam: string | null, sig: string | null, now = Date.now()) {
  if (!expiresParam || !sig || !/^\d{1,15}$/.test(expiresParam)) return false;
  const expires = Number(expiresParam);
  if (expires < now || expires > now + ATTACHMENT_URL_TTL_MS) return false;
  const given = Buffer.from(sig);
  return sessionSecrets(env).some((secret) => {
    const expected = Buffer.from(sign(secret, id, expires));
    return expected.length === given.length && crypto.timingSafeEqual(expected, given);
  });
}

/** Images open inline (thumbnails); everything else downloads. */
export function attachmentDisposition(row: Pick<AttachmentRow, "fileName" | "mimeType">) {
  const disposition = contentDisposition(row.fileName);
  return row.mimeType.startsWith("image/") ? disposition.replace(/^attachment/, "inline") : disposition;
}

const SWEEP_BATCH = 100;
export const UNSENT_SWEEP_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Deletes uploads never attached to a sent message nor named by a brief, and older than a day: the rows first, in
 * batches taken with `for update skip locked` (nodes sweeping at once split the rows, and a message
 * being sent with the file holds its row), then each stored file. A file whose delete fails stays
 * behind (logged); a row never points at a missing file. Returns how many were removed.
 */
export async function removeUnsentAttachments(now = Date.now()): Promise<number> {
  const cutoff = new Date(now - UNSENT_ATTACHMENT_TTL_MS);
  let removed = 0;
  for (;;) {
    const keys = await db.transaction(async (tx) => {
      const stale = await tx
        .select({ id: a.id, storageKey: a.storageKey })
        .from(a)
        .where(and(isNull(a.messageId), isNull(a.briefId), lt(a.createdAt, cutoff)))
        .orderBy(asc(a.createdAt))
        .limit(SWEEP_BATCH)
        .for("update", { skipLocked: true });
      if (stale.length > 0)
        await tx.delete(a).where(
          inArray(
            a.id,
            stale.map((row) => row.id),
          ),
        );
      return stale.map((row) => row.storageKey);
    });
    for (const key of keys) {
      await storage.delete(key).catch((error: unknown) => logger.warn({ err: error, key }, "removing an unsent chat attachment's file failed"));
    }
    removed += keys.length;
    if (keys.length < SWEEP_BATCH) return removed;
  }
}

/** Runs the sweep on this node every hour (every node does; the sweep is safe to run at once). */
export function startUnsentAttachmentSweep(): () => void {
  return startSweep({
    everyMs: UNSENT_SWEEP_INTERVAL_MS,
    work: removeUnsentAttachments,
    done: "removed unsent chat attachments",
    failed: "the unsent chat attachment sweep failed",
  });
}
