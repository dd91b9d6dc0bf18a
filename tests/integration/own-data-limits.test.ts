import crypto from "node:crypto";
import { describe, expect, test } from "vitest";

import { EXPORT_RUNNING_MESSAGE } from "~/models/account-export.server";
import * as exportApi from "~/routes/api+/account+/export";
import { db, schema } from "~/utils/db.server";
import { putBuffer } from "~/utils/storage.server";

import { call, readJson } from "../support/dashboard-helpers";
import { catalogue, createAccount, createPurchase, unique, type Account } from "../support/factories";

/* The data export's limits (decision 262): one at a time per account, three an hour per account. */

/**
 * An account whose zip is far larger than a stream's buffers (a 2 MB report that does not compress):
 * its export is still streaming until the client reads it, whatever the database's speed.
 */
async function accountWithLargeReport() {
  const account = await createAccount({ role: "user" });
  const [service] = await catalogue();
  const { purchase } = await createPurchase(account.id, service!);
  const bytes = crypto.randomBytes(2 * 1024 * 1024);
  const storageKey = `reports/${unique()}.pdf`;
  await putBuffer(storageKey, bytes, "application/pdf");
  await db.insert(schema.reports).values({
    userId: account.id,
    serviceId: service!.id,
    purchaseId: purchase.id,
    title: "Large report",
    fileName: "large.pdf",
    fileSize: bytes.length,
    mimeType: "application/pdf",
    storageKey,
  });
  return account;
}

const exportOf = (auth: Account) => call(exportApi.loader, "/api/account/export", { auth });
type ErrorBody = { success: boolean; status: string; message: string; error: string; code: string };

describe("GET /api/account/export limits", () => {
  test("a second export while the first is still streaming is a 429; once the first is read, the next one starts", async () => {
    const account = await accountWithLargeReport();
    const first = await exportOf(account);
    expect(first.status).toBe(200);
    const second = await exportOf(account);
    expect(second.status).toBe(429);
    expect(second.headers.get("Retry-After")).toBe("60");
    expect(await readJson<ErrorBody>(second)).toEqual({
      success: false,
      status: "error",
      message: EXPORT_RUNNING_MESSAGE,
      error: EXPORT_RUNNING_MESSAGE,
      code: "RATE_LIMITED",
    });
    // Another account is not held up by it.
    expect((await exportOf(await createAccount({ role: "user" }))).status).toBe(200);
    expect((await first.arrayBuffer()).byteLength).toBeGreaterThan(0);
    const third = await exportOf(account);
    expect(third.status).toBe(200);
    // An export the client abandons also ends its turn.
    await third.body!.cancel();
    await new Promise((resolve) => setImmediate(resolve));
    const fourth = await exportOf(account);
    expect(fourth.status).toBe(200);
    await fourth.arrayBuffer();
    // Three exports started this hour: the next is refused until the hour is over.
    const fifth = await exportOf(account);
    expect(fifth.status).toBe(429);
    expect((await readJson<ErrorBody>(fifth)).message).toMatch(/^Too many attempts\. Please try again in about/);
  });

  test("three exports an hour per account, then a 429 with Retry-After in the usual error shape", async () => {
    const account = await createAccount({ role: "team" });
    for (let i = 0; i < 3; i++) {
      const response = await exportOf(account);
      expect(response.status).toBe(200);
      await response.arrayBuffer();
    }
    const refused = await exportOf(account);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(3000);
    expect(await readJson<ErrorBody>(refused)).toMatchObject({ success: false, status: "error", code: "RATE_LIMITED" });
  });
});
