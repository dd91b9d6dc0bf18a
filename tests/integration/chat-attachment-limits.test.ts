import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";

import { ATTACHMENT_LIMIT_MESSAGES, ATTACHMENT_QUOTA_BYTES, ATTACHMENT_UPLOADS_PER_WINDOW } from "~/domain/attachment-limits";
import { supportRoomId } from "~/domain/chat";
import { db, schema } from "~/utils/db.server";
import { env } from "~/utils/env.server";

import { rowsOf, sweepScenario, upload } from "../support/chat-attachment-helpers";
import { readJson } from "../support/dashboard-helpers";
import { createAccount } from "../support/factories";

/*
 * Chat attachments are limited per account (docs/decisions/130): a rate of uploads
 * (429) and a quota of stored bytes (413), both in the API error shape, nothing kept when refused.
 */

const chatFiles = () => (fs.existsSync(path.join(env.storageDir, "chat")) ? fs.readdirSync(path.join(env.storageDir, "chat")) : []);

describe("chat attachment limits", () => {
  test(`past ${ATTACHMENT_UPLOADS_PER_WINDOW} uploads a minute an account gets a 429 that says why and when, and nothing is stored`, async () => {
    const customer = await createAccount({ role: "user" });
    const other = await createAccount({ role: "user" });
    for (let i = 0; i < ATTACHMENT_UPLOADS_PER_WINDOW; i++) expect((await upload(customer)).status).toBe(201);
    const before = chatFiles().length;
    const refused = await upload(customer);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    const body = await readJson<{ status: string; message: string }>(refused);
    expect(body.status).toBe("error");
    expect(body.message).toMatch(/^You are sending files too quickly\. Please try again in /);
    expect(chatFiles().length).toBe(before);
    expect(await rowsOf(customer)).toHaveLength(ATTACHMENT_UPLOADS_PER_WINDOW);
    // The limit is the account's own: another customer still uploads.
    expect((await upload(other)).status).toBe(201);
  }, 60_000);

  test("an upload that would take an account past its quota is a 413 in the error shape, and the file is not kept", async () => {
    const customer = await createAccount({ role: "user" });
    const room = supportRoomId(customer.id);
    await db.insert(schema.chatAttachments).values({
      roomId: room,
      uploaderId: customer.id,
      storageKey: `chat/quota-${customer.id}.pdf`,
      fileName: "earlier.pdf",
      mimeType: "application/pdf",
      fileSize: ATTACHMENT_QUOTA_BYTES - 10,
    });
    const before = chatFiles().length;
    const refused = await upload(customer);
    expect(refused.status).toBe(413);
    expect(await readJson(refused)).toMatchObject({ status: "error", message: ATTACHMENT_LIMIT_MESSAGES.quota });
    expect(chatFiles().length).toBe(before);
    expect(await rowsOf(customer)).toHaveLength(1);

    // Full to the byte: refused before the body is read.
    await db.update(schema.chatAttachments).set({ fileSize: ATTACHMENT_QUOTA_BYTES }).where(eq(schema.chatAttachments.uploaderId, customer.id));
    expect((await upload(customer)).status).toBe(413);
    expect(chatFiles().length).toBe(before);
  });

  test("uploads never sent are removed after a day, from the database and the disk; sent and recent ones stay", async () => {
    const customer = await createAccount({ role: "user" });
    await sweepScenario(customer, async (key) => fs.existsSync(path.join(env.storageDir, key)));
  }, 60_000);
});
