import { HeadObjectCommand } from "@aws-sdk/client-s3";
import { afterAll, describe, expect, it } from "vitest";

import { fakeS3ForFile, s3Client } from "../support/s3rver";

/*
 * "Your own data" with the files in S3-compatible storage (s3rver on a local port, as in
 * reports-s3.test.ts): the export streams the report file out of the bucket, and deleting the
 * account removes its chat upload and report objects. The S3_* settings precede the app's import.
 */
const s3 = await fakeS3ForFile();

const { storage } = await import("~/utils/storage.server");
const exportApi = await import("~/routes/api+/account+/export");
const { call } = await import("../support/dashboard-helpers");
const { customerWithData, deletionRemovesFiles } = await import("../support/own-data-helpers");
const { readZip } = await import("../support/zip");

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

describe("your own data on S3-compatible storage", () => {
  it("exports the report file from the bucket, then deleting the account removes its objects", async () => {
    expect(storage.kind).toBe("s3");
    const scenario = await customerWithData();
    const response = await call(exportApi.loader, "/api/account/export", { auth: scenario.account });
    expect(response.status).toBe(200);
    const entries = readZip(Buffer.from(await response.arrayBuffer()));
    const json = JSON.parse(entries.get("account.json")!.toString("utf8")) as { reports: { file: string }[] };
    expect(entries.get(json.reports[0]!.file)).toEqual(scenario.reportBytes);

    await deletionRemovesFiles(scenario, inBucket);
  }, 60_000);
});
