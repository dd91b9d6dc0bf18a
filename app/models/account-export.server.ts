import { once } from "node:events";
import type { Readable } from "node:stream";
import { ZipArchive } from "archiver";
import { and, eq, like, notLike, or } from "drizzle-orm";

import { supportRoomId, type ChatMessage } from "~/domain/chat";
import { db, schema } from "~/utils/db.server";
import { HttpError } from "~/utils/http.server";
import { logger } from "~/utils/logger.server";
import { consume, limits, release } from "~/utils/rate-limit.server";
import { storage } from "~/utils/storage.server";

import { getAccount, toAccountJson } from "./account.server";
import { listBriefsOfUser } from "./briefs.server";
import { getRoomMessages } from "./chat.server";
import { listOrdersOfUser } from "./orders-list.server";
import { listPosts, toPostJson } from "./posts.server";
import { listPurchasesForUser, toPurchaseJson } from "./purchases.server";
import { listReceiptsForUser, toReceiptJson } from "./receipts.server";
import { listReportsForUser, toReportJson, type ReportRow } from "./reports.server";
import { listSignInDevices } from "./sign-in-devices.server";
import { listSubscriptionsForUser, toSubscriptionJsons } from "./subscriptions.server";

/*
 * "Your own data" (decision 240): everything kept about the signed-in account, as a
 * zip streamed while it is made. The records are read first (a failure there is an ordinary error
 * answer); then each report file is streamed from storage into the zip, one at a time, and
 * `account.json` closes it, saying where each file is (or that it could not be read).
 */

const MESSAGE_PAGE = 200;

/** Every message of a room, oldest first, read a page at a time from the newest back. */
async function allMessages(roomId: string): Promise<ChatMessage[]> {
  const pages: ChatMessage[][] = [];
  let before: string | undefined;
  for (;;) {
    const page = (await getRoomMessages(roomId, before ? { before } : {}, MESSAGE_PAGE)) ?? [];
    pages.unshift(page);
    if (page.length < MESSAGE_PAGE) return pages.flat();
    before = page[0]!._id;
  }
}

/** The rooms the account writes in: its support thread, and the direct rooms it is one of the two members of. */
async function roomsOf(userId: string): Promise<string[]> {
  const m = schema.chatMessages;
  const rows = await db
    .selectDistinct({ roomId: m.roomId })
    .from(m)
    .where(or(eq(m.roomId, supportRoomId(userId)), and(like(m.roomId, `%${userId}%`), notLike(m.roomId, "support-%"), notLike(m.roomId, "visitor-%"))))
    .orderBy(m.roomId);
  return rows.map((row) => row.roomId);
}

/** A file name safe inside a zip on every system: no folders, no control or reserved characters. */
function zipName(report: Pick<ReportRow, "id" | "fileName">) {
  const cleaned = report.fileName
    .normalize("NFC")
    // eslint-disable-next-line no-control-regex -- control characters are what is being removed
    .replace(/[\u0000-\u001f\u007f<>:"/\\|?*]/g, "_")
    .replace(/^\.+/, "_")
    .slice(0, 120);
  return `reports/${report.id.slice(0, 8)}-${cleaned || "report"}`;
}

/** The account's records, as account.json holds them (without the report files' places yet). */
async function collectRecords(userId: string) {
  const user = await getAccount(userId);
  const [orders, purchases, subscriptionRows, receipts, reports, rooms, posts, briefs, signInDevices] = await Promise.all([
    listOrdersOfUser(userId),
    listPurchasesForUser(userId),
    listSubscriptionsForUser(userId),
    listReceiptsForUser(userId),
    listReportsForUser(userId),
    roomsOf(userId),
    // A customer's content calendar as they see it (never drafts); staff have no calendar of their own.
    user.role === "user" ? listPosts({ id: user.id, role: user.role }) : Promise.resolve([]),
    listBriefsOfUser(userId),
    // Where the account signed in from (what the new-device e-mails named).
    listSignInDevices(userId),
  ]);
  const messages: ChatMessage[] = [];
  for (const roomId of rooms) messages.push(...(await allMessages(roomId)));
  return {
    profile: { ...toAccountJson(user), profileImage: user.profileImage },
    orders,
    purchases: purchases.map(toPurchaseJson),
    subscriptions: await toSubscriptionJsons(subscriptionRows),
    receipts: receipts.map(toReceiptJson),
    messages,
    briefs,
    posts: posts.map(toPostJson),
    signInDevices,
    reports,
  };
}

export const EXPORT_RUNNING_MESSAGE = "Your data export is still being prepared. Please wait until it has finished, then try again.";

/**
 * An export may start for this account: one at a time (on every node), and a few an hour; past
 * either, a 429 (decision 262). Answers the function that ends this one's turn (called once, when
 * its zip has been read, abandoned or has failed); a node that dies mid-export loses the turn
 * after the lease's half hour.
 */
export async function startAccountExport(userId: string): Promise<() => void> {
  try {
    await consume(limits.accountExportRunning, userId);
  } catch (error) {
    if (error instanceof HttpError && error.status === 429) throw new HttpError(429, EXPORT_RUNNING_MESSAGE, "RATE_LIMITED", { "Retry-After": "60" });
    throw error;
  }
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    release(limits.accountExportRunning, userId).catch((error: unknown) => logger.warn({ err: error, userId }, "could not end an account export's turn"));
  };
  try {
    await consume(limits.accountExport, userId);
  } catch (error) {
    end();
    throw error;
  }
  return end;
}

/**
 * The zip of the account's data. Resolves once the records are read; the returned stream then
 * produces the zip as it is read (each file comes from storage as it is written out, never held
 * whole), and errors if storage fails mid-file.
 */
export async function accountExport(userId: string, now = new Date()): Promise<Readable> {
  const { reports, ...records } = await collectRecords(userId);
  const archive = new ZipArchive({ zlib: { level: 6 } });
  let current: Readable | null = null;
  archive.on("warning", (error) => logger.warn({ err: error, userId }, "account export warning"));
  archive.on("error", (error) => logger.warn({ err: error, userId }, "account export failed"));
  // The reader went away: stop reading the file being copied.
  archive.on("close", () => current?.destroy());

  const write = async () => {
    const files = new Map<string, string | null>();
    for (const report of reports) {
      if (archive.destroyed) return;
      try {
        current = await storage.get(report.storageKey);
      } catch (error) {
        logger.warn({ err: error, reportId: report.id }, "a report file is missing from storage; the export says so");
        files.set(report.id, null);
        continue;
      }
      const name = zipName(report);
      const added = once(archive, "entry");
      // Reports are pdf, images and office files: compressed already, so stored as they are.
      archive.append(current, { name, date: report.createdAt, store: true });
      await added;
      files.set(report.id, name);
    }
    current = null;
    const document = {
      exportedAt: now.toISOString(),
      ...records,
      reports: reports.map((report) => ({ ...toReportJson(report), file: files.get(report.id) ?? null })),
    };
    archive.append(JSON.stringify(document, null, 2) + "\n", { name: "account.json", date: now });
    await archive.finalize();
  };
  write().catch((error: unknown) => {
    if (!archive.destroyed) archive.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  return archive;
}
