import { ListObjectsV2Command } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { fakeS3ForFile, s3Client } from "../support/s3rver";

/*
 * Report versions and the purge with the files in S3-compatible storage (s3rver on a local port):
 * a replaced report keeps both objects; the purge of a report deleted over 30 days ago removes
 * every version's object from the bucket. The S3_* settings are set before the app is imported.
 */
const s3 = await fakeS3ForFile();

const { storage } = await import("~/utils/storage.server");
const { purgeDeletedReports } = await import("~/models/report-versions.server");
const deleteApi = await import("~/routes/api+/reports+/$id");
const helpers = await import("../support/dashboard-helpers");
const cases = await import("../support/reports-cases");
const versions = await import("../support/report-versions-cases");

const client = s3Client(s3);

async function objectKeys() {
  const listed = await client.send(new ListObjectsV2Command({ Bucket: s3.S3_BUCKET }));
  return (listed.Contents ?? []).map((o) => o.Key!).sort();
}

let staff: Awaited<ReturnType<typeof helpers.createAccount>>;
let customer: typeof staff;
let serviceId: string;

beforeAll(async () => {
  const services = await helpers.catalogue();
  serviceId = services[1]!.id;
  staff = await helpers.createAccount("team");
  customer = await helpers.createAccount("user");
  await helpers.createPurchase(customer.user.id, services[1]!);
});

afterAll(async () => {
  await s3.close();
});

describe("report versions on S3-compatible storage", { timeout: 60_000 }, () => {
  it("a new version adds an object; the purge removes every version's object", async () => {
    expect(storage.kind).toBe("s3");
    const uploaded = await cases.postUpload(staff, serviceId, {
      file: { name: "v1.pdf", bytes: cases.samples.pdf() },
      title: "S3 report",
      userId: customer.user.id,
    });
    const id = ((await uploaded.json()) as { data: { _id: string } }).data._id;
    const replaced = await versions.postVersion(staff, id, { name: "v2.png", bytes: cases.samples.png() }, "sharper chart");
    expect(replaced.status).toBe(201);
    const keys = [(await cases.storedKey(id))!, ...(await versions.versionKeys(id))].sort();
    expect(keys).toHaveLength(2);
    expect(await objectKeys()).toEqual(keys);

    const { response: served } = await cases.downloadThroughSignedUrl(customer, id);
    expect(Buffer.from(await served.arrayBuffer()).equals(cases.samples.png())).toBe(true);

    expect((await helpers.call(deleteApi.action, `/api/reports/${id}`, { auth: staff, method: "DELETE", params: { id } })).status).toBe(200);
    expect(await purgeDeletedReports()).toBe(0);
    expect(await objectKeys()).toEqual(keys);
    await versions.deletedDaysAgo(id, 31);
    expect(await purgeDeletedReports()).toBe(1);
    expect(await objectKeys()).toEqual([]);
    expect(await cases.storedKey(id)).toBeUndefined();
  });
});
