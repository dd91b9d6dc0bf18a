import { HeadObjectCommand } from "@aws-sdk/client-s3";
import { afterAll, describe, expect, it } from "vitest";

import { fakeS3ForFile, s3Client } from "../support/s3rver";

/*
 * The sweep of unsent chat uploads with the files in S3-compatible storage (s3rver on a local
 * port, as in reports-s3.test.ts). The S3_* settings must be in place before env is imported.
 */
const s3 = await fakeS3ForFile();

const { storage } = await import("~/utils/storage.server");
const { sweepScenario } = await import("../support/chat-attachment-helpers");
const { createAccount } = await import("../support/factories");

const client = s3Client(s3);

afterAll(async () => {
  await s3.close();
});

async function inBucket(key: string) {
  try {
    await client.send(new HeadObjectCommand({ Bucket: s3.S3_BUCKET, Key: key }));
    return true;
  } catch (error) {
    if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return false;
    throw error;
  }
}

describe("unsent chat uploads on S3-compatible storage", () => {
  it("removes the old unsent upload's object and row; sent and recent ones stay", async () => {
    expect(storage.kind).toBe("s3");
    const customer = await createAccount({ role: "user" });
    await sweepScenario(customer, inBucket);
  }, 60_000);
});
