import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";

import { purgeDeletedReports } from "~/models/report-versions.server";
import * as deleteApi from "~/routes/api+/reports+/$id";
import * as myReports from "~/routes/api+/reports+/my-reports";
import * as page from "~/routes/dashboard+/_staff+/users+/$userId.reports.$reportId";
import * as file from "~/routes/files.reports.$reportId";
import * as versionFile from "~/routes/files.reports.$reportId.versions.$versionId";
import { db, schema } from "~/utils/db.server";
import { env } from "~/utils/env.server";

import { callRoute } from "../support/call-route";
import { call, catalogue, createAccount, createPurchase, readJson, type Account } from "../support/dashboard-helpers";
import { deletedDaysAgo, postVersion, versionKeys } from "../support/report-versions-cases";
import { postUpload, samples, storedKey } from "../support/reports-cases";
import { BASE_URL } from "../support/requests";

/*
 * Report versions and deletion (decision 221): staff replace a report (the customer gets the new file,
 * staff keep the old one with its note); a deleted report is gone for the customer at once, kept
 * for staff, and purged with every version's file after 30 days.
 */

let staff: Account;
let customer: Account;
let serviceId: string;

beforeAll(async () => {
  staff = await createAccount("team", { name: "Riley Reports" });
  customer = await createAccount("user", { name: "Morgan Customer" });
  const [service] = await catalogue();
  serviceId = service!.id;
  await createPurchase(customer.id, service!, {});
});

async function newReport(title = "Monthly report") {
  const response = await postUpload(staff, serviceId, { file: { name: "first.pdf", bytes: samples.pdf() }, title, userId: customer.id });
  expect(response.status).toBe(201);
  return (await readJson<{ data: { _id: string } }>(response)).data._id;
}
const fetchFile = (reportId: string, who: Account) => call(file.loader, `/files/reports/${reportId}`, { auth: { cookie: who.cookie }, params: { reportId } });
const customerList = async () =>
  (await readJson<{ data: { reports: { _id: string }[] } }>(await call(myReports.loader, "/api/reports/my-reports", { auth: customer }))).data.reports;
const auditOf = async (reportId: string) =>
  (await db.select().from(schema.auditEntries).where(eq(schema.auditEntries.targetId, reportId))).map((row) => row.action).sort();

describe("a new version", () => {
  test("the report serves the new file; the earlier one stays for staff with its note", async () => {
    const id = await newReport();
    const png = samples.png();
    const response = await postVersion(staff, id, { name: "second.png", bytes: png }, "Fixed the March figures");
    expect(response.status).toBe(201);
    const body = await readJson<{ success: boolean; data: { report: { _id: string; fileName: string; mimeType: string } } }>(response);
    expect(body).toMatchObject({ success: true, data: { report: { _id: id, fileName: "second.png", mimeType: "image/png" } } });

    const served = await fetchFile(id, customer);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(png)).toBe(true);

    const view = await callRoute(page.loader, new Request(`${BASE_URL}/dashboard/users/${customer.id}/reports/${id}`, { headers: { Cookie: staff.cookie } }), {
      params: { userId: customer.id, reportId: id },
    });
    const versions = view.data.versions as { id: string | null; version: number; fileName: string; note: string | null; current: boolean }[];
    expect(versions.map((v) => [v.version, v.fileName, v.note, v.current])).toEqual([
      [2, "second.png", "Fixed the March figures", true],
      [1, "first.pdf", null, false],
    ]);
    const old = versions[1]!.id!;
    const oldFile = await call(versionFile.loader, `/files/reports/${id}/versions/${old}`, {
      auth: { cookie: staff.cookie },
      params: { reportId: id, versionId: old },
    });
    expect(oldFile.status).toBe(200);
    expect(Buffer.from(await oldFile.arrayBuffer()).equals(samples.pdf())).toBe(true);
    // Customers only ever get the current file.
    const refused = await call(versionFile.loader, `/files/reports/${id}/versions/${old}`, { auth: customer, params: { reportId: id, versionId: old } });
    expect(refused.status).toBe(404);
    expect(await auditOf(id)).toEqual(["report.replace", "report.upload"]);
  });

  test("refusals: no file, a file that is not what it says, a long note, a report that does not exist, a customer", async () => {
    const id = await newReport();
    const message = async (response: Response) => ({ status: response.status, message: (await readJson<{ message: string }>(response)).message });
    expect(await message(await postVersion(staff, id, null, "no file"))).toEqual({ status: 400, message: "Please select a file to upload" });
    expect(await message(await postVersion(staff, id, { name: "x.pdf", bytes: samples.html() }))).toEqual({
      status: 415,
      message: "Please upload only PDF, DOC, DOCX, or image files",
    });
    expect(await message(await postVersion(staff, id, { name: "x.pdf", bytes: samples.pdf() }, "n".repeat(1001)))).toEqual({
      status: 400,
      message: "The note must be at most 1,000 characters.",
    });
    expect((await postVersion(staff, crypto.randomUUID(), { name: "x.pdf", bytes: samples.pdf() })).status).toBe(404);
    expect((await postVersion(customer, id, { name: "x.pdf", bytes: samples.pdf() })).status).toBe(403);
    // Nothing changed and nothing was left behind.
    expect(await versionKeys(id)).toEqual([]);
    expect(await auditOf(id)).toEqual(["report.upload"]);
  });
});

describe("deleting", () => {
  test("gone for the customer at once — list, download, a signed link handed out before — and kept for staff", async () => {
    const id = await newReport("To be deleted");
    const { downloadUrl } = (
      await readJson<{ data: { downloadUrl: string } }>(
        await call((await import("~/routes/api+/reports+/$id.download")).loader, `/api/reports/${id}/download`, { auth: customer, params: { id } }),
      )
    ).data;
    const response = await call(deleteApi.action, `/api/reports/${id}`, { auth: staff, method: "DELETE", params: { id } });
    expect(response.status).toBe(200);
    expect(await readJson(response)).toEqual({ success: true });

    expect((await customerList()).map((r) => r._id)).not.toContain(id);
    expect((await fetchFile(id, customer)).status).toBe(404);
    const signed = new URL(downloadUrl);
    expect((await call(file.loader, signed.pathname + signed.search, { params: { reportId: id } })).status).toBe(404);
    expect((await fetchFile(id, staff)).status).toBe(200);

    expect((await call(deleteApi.action, `/api/reports/${id}`, { auth: staff, method: "DELETE", params: { id } })).status).toBe(404);
    expect((await postVersion(staff, id, { name: "x.pdf", bytes: samples.pdf() })).status).toBe(404);
    expect(await auditOf(id)).toEqual(["report.delete", "report.upload"]);
  });

  test("the purge removes reports deleted over 30 days ago with every version's file; younger ones stay", async () => {
    const old = await newReport("Old");
    await postVersion(staff, old, { name: "v2.pdf", bytes: samples.pdf() }, "second");
    const young = await newReport("Young");
    const keys = [(await storedKey(old))!, ...(await versionKeys(old))];
    expect(keys).toHaveLength(2);
    for (const id of [old, young]) await call(deleteApi.action, `/api/reports/${id}`, { auth: staff, method: "DELETE", params: { id } });
    await deletedDaysAgo(old, 31);
    await deletedDaysAgo(young, 29);
    for (const key of keys) expect(fs.existsSync(path.join(env.storageDir, key))).toBe(true);

    expect(await purgeDeletedReports()).toBe(1);
    expect(await storedKey(old)).toBeUndefined();
    expect(await versionKeys(old)).toEqual([]);
    for (const key of keys) expect(fs.existsSync(path.join(env.storageDir, key))).toBe(false);
    expect(await storedKey(young)).toBeDefined();
    // Two nodes purging at once: the rows are split, nothing is done twice.
    expect(await Promise.all([purgeDeletedReports(), purgeDeletedReports()])).toEqual([0, 0]);
  });
});

describe("the staff page, without JavaScript", () => {
  const pageRequest = (reportId: string, init: RequestInit, who: Account = staff) =>
    new Request(`${BASE_URL}/dashboard/users/${customer.id}/reports/${reportId}`, {
      ...init,
      headers: { Cookie: who.cookie, Origin: BASE_URL, ...(init.headers ?? {}) },
    });

  test("a multipart form replaces the file; Delete asks first, then deletes", async () => {
    const id = await newReport("Page report");
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(samples.png())]), "page.png");
    form.append("note", "From the page");
    const replaced = await callRoute(page.action, pageRequest(id, { method: "POST", body: form }), { params: { userId: customer.id, reportId: id } });
    expect(replaced.status).toBe(302);
    expect(replaced.location).toBe(`/dashboard/users/${customer.id}/reports/${id}`);

    const ask = await callRoute(page.action, pageRequest(id, { method: "POST", body: new URLSearchParams({ intent: "delete" }) }), {
      params: { userId: customer.id, reportId: id },
    });
    expect(ask.data).toMatchObject({ confirmDelete: true });
    expect((await customerList()).map((r) => r._id)).toContain(id);
    const done = await callRoute(page.action, pageRequest(id, { method: "POST", body: new URLSearchParams({ intent: "delete", confirm: "yes" }) }), {
      params: { userId: customer.id, reportId: id },
    });
    expect(done.status).toBe(302);
    expect(done.location).toBe(`/dashboard/users/${customer.id}`);
    expect((await customerList()).map((r) => r._id)).not.toContain(id);
  });

  test("a form with a bad file shows the message; customers and other customers' reports get no page", async () => {
    const id = await newReport("Bad file");
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(samples.exe())]), "x.png");
    const refused = await callRoute(page.action, pageRequest(id, { method: "POST", body: form }), { params: { userId: customer.id, reportId: id } });
    expect(refused.status).toBe(415);
    expect(refused.data).toMatchObject({ replaceError: "Please upload only PDF, DOC, DOCX, or image files" });
    const asCustomer = await callRoute(page.loader, pageRequest(id, {}, customer), { params: { userId: customer.id, reportId: id } });
    expect(asCustomer.status).toBe(403);
    const other = await createAccount("user");
    const wrongOwner = await callRoute(page.loader, pageRequest(id, {}), { params: { userId: other.id, reportId: id } });
    expect(wrongOwner.status).toBe(404);
  });
});
