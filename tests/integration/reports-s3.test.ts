import fs from "node:fs";
import { ListObjectsV2Command } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { fakeS3ForFile, s3Client } from "../support/s3rver";

/*
 * The same upload and download, with the files in S3-compatible storage (s3rver on a local
 * port). The S3_* settings must be in place before the app's env module is first imported.
 */
const s3 = await fakeS3ForFile();

const { storage } = await import("~/utils/storage.server");
const { env } = await import("~/utils/env.server");
const helpers = await import("../support/dashboard-helpers");
const cases = await import("../support/reports-cases");

const client = s3Client(s3);

async function objectKeys() {
  const listed = await client.send(new ListObjectsV2Command({ Bucket: s3.S3_BUCKET }));
  return (listed.Contents ?? []).map((o) => o.Key!);
}

let staff: Awaited<ReturnType<typeof helpers.createAccount>>;
let customer: typeof staff;
let serviceId: string;

beforeAll(async () => {
  const services = await helpers.catalogue();
  serviceId = services[2].id;
  staff = await helpers.createAccount("team");
  customer = await helpers.createAccount("user");
  await helpers.createPurchase(customer.user.id, services[2]);
});

afterAll(async () => {
  await s3.close();
});

// Megabytes through s3rver: a loaded machine takes longer than the default 20 s.
describe("report upload and download on S3-compatible storage", { timeout: 60_000 }, () => {
  it("uses S3, not the disk", () => {
    expect(env.s3?.bucket).toBe(s3.S3_BUCKET);
    expect(storage.kind).toBe("s3");
  });

  it("stores the file in the bucket under a generated key and serves the same bytes", async () => {
    const bytes = cases.samples.pdfOfSize(6 * cases.MiB + 123);
    const response = await cases.postUpload(staff, serviceId, { file: { name: "growth plan.pdf", bytes }, title: "Growth plan", userId: customer.user.id });
    expect(response.status).toBe(201);
    const { data } = await response.json();
    const key = await cases.storedKey(data._id);
    expect(key).toMatch(/^reports\/[0-9a-f-]{36}\.pdf$/);
    expect(await objectKeys()).toEqual([key]);
    expect(fs.existsSync(env.storageDir) ? cases.filesUnder(env.storageDir) : []).toEqual([]);

    const { response: served } = await cases.downloadThroughSignedUrl(customer, data._id);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);
    expect(served.headers.get("Content-Disposition")).toContain("filename*=UTF-8''growth%20plan.pdf");
  });

  const refusals: [string, Parameters<typeof cases.postUpload>[2], number, string][] = [
    [
      "10 MiB + 1 byte",
      { file: { name: "big.pdf", bytes: cases.samples.pdfOfSize(10 * cases.MiB + 1) }, title: "Big" },
      413,
      "File size must be less than 10MB",
    ],
    ["an empty file", { file: { name: "empty.pdf", bytes: Buffer.alloc(0) }, title: "Empty" }, 400, "Please select a file to upload"],
    ["a .pdf that is HTML", { file: { name: "x.pdf", bytes: cases.samples.html() }, title: "Fake" }, 415, "Please upload only PDF, DOC, DOCX, or image files"],
    ["an .exe renamed .png", { file: { name: "x.png", bytes: cases.samples.exe() }, title: "Exe" }, 415, "Please upload only PDF, DOC, DOCX, or image files"],
    ["a title of spaces", { file: { name: "ok.pdf", bytes: cases.samples.pdf() }, title: "  " }, 400, "Please enter a report title"],
  ];
  for (const [name, input, status, message] of refusals) {
    it(`${name}: refused, nothing left in the bucket or the database`, async () => {
      const before = { keys: await objectKeys(), rows: await cases.reportCount() };
      await cases.expectUploadRefused(await cases.postUpload(staff, serviceId, { ...input, userId: customer.user.id }), status, message);
      expect({ keys: await objectKeys(), rows: await cases.reportCount() }).toEqual(before);
    });
  }

  it("a userId that is not a customer: the object already streamed to S3 is deleted again", async () => {
    const before = { keys: await objectKeys(), rows: await cases.reportCount() };
    const response = await cases.postUpload(staff, serviceId, { file: { name: "ok.pdf", bytes: cases.samples.pdf() }, title: "T", userId: staff.user.id });
    await cases.expectUploadRefused(response, 404, "Customer not found.");
    expect({ keys: await objectKeys(), rows: await cases.reportCount() }).toEqual(before);
  });
});
