import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it, vi } from "vitest";

import { receiveReportUpload } from "~/models/report-upload.server";
import * as download from "~/routes/api+/reports+/$id.download";
import * as file from "~/routes/files.reports.$reportId";
import { env } from "~/utils/env.server";
import { HttpError } from "~/utils/http.server";
import { logger } from "~/utils/logger.server";
import { storage } from "~/utils/storage.server";

import { call, catalogue, createAccount, createPurchase, type Account } from "../support/dashboard-helpers";
import {
  downloadThroughSignedUrl,
  expectUploadRefused,
  filesUnder,
  MiB,
  postRawUpload,
  postUpload,
  reportCount,
  samples,
  unfoldMail,
} from "../support/reports-cases";

let staff: Account;
let customer: Account;
let other: Account;
let services: Awaited<ReturnType<typeof catalogue>>;
let purchaseId: string;

beforeAll(async () => {
  expect(storage.kind).toBe("disk");
  services = await catalogue();
  staff = await createAccount("team");
  customer = await createAccount("user", { name: "Dana Report", email: "dana.report@dash.test" });
  other = await createAccount("user");
  purchaseId = (await createPurchase(customer.user.id, services[0])).purchase.id;
  await createPurchase(other.user.id, services[1]);
});

describe("report upload and download on local disk", () => {
  it("stores a PDF, mails the customer a link, and serves the same bytes through a signed link", async () => {
    const bytes = samples.pdf();
    const response = await postUpload(staff, services[0].id, {
      file: { name: "Audit résumé.pdf", bytes, type: "application/pdf" },
      title: "  Quarterly audit  ",
      description: "   ",
      userId: customer.user.id,
    });
    expect(response.status).toBe(201);
    const { data: report } = await response.json();
    expect(report).toMatchObject({
      title: "Quarterly audit",
      description: null,
      fileName: "Audit résumé.pdf",
      fileSize: bytes.length,
      mimeType: "application/pdf",
      service: { _id: services[0].id, name: services[0].name },
      userId: customer.user.id,
    });
    expect(filesUnder(env.storageDir)).toHaveLength(1);

    const mails = fs.readdirSync(env.outboxDir).filter((f) => f.includes("dana.report"));
    expect(mails).toHaveLength(1);
    const mail = unfoldMail(fs.readFileSync(path.join(env.outboxDir, mails[0]), "utf8"));
    expect(mail).toContain("A new report is ready");
    expect(mail).toContain(`/dashboard/services/${purchaseId}`);

    const { response: served, fileName } = await downloadThroughSignedUrl(customer, report._id);
    expect(fileName).toBe("Audit résumé.pdf");
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);
    expect(served.headers.get("Content-Disposition")).toBe(`attachment; filename="Audit r_sum_.pdf"; filename*=UTF-8''Audit%20r%C3%A9sum%C3%A9.pdf`);
    // nosniff: helmet sets it once on every answer (server.ts); a second copy from the route made it twice.
    expect(served.headers.get("X-Content-Type-Options")).toBeNull();
    expect(served.headers.get("Cache-Control")).toBe("no-store");
    expect(served.headers.get("Content-Type")).toBe("application/pdf");

    // Staff may download it too; another customer may not, neither by API nor by the plain link.
    expect((await downloadThroughSignedUrl(staff, report._id)).response.status).toBe(200);
    const warn = vi.spyOn(logger, "warn");
    const refused = await call(download.loader, `/api/reports/${report._id}/download`, { auth: other, params: { id: report._id } });
    expect(refused.status).toBe(404);
    const plain = await call(file.loader, `/files/reports/${report._id}`, { auth: { cookie: other.cookie }, params: { reportId: report._id } });
    expect(plain.status).toBe(404);
    // Both attempts are logged with who asked for whose report.
    expect(warn).toHaveBeenCalledTimes(2);
    expect(warn).toHaveBeenCalledWith(
      { actorId: other.user.id, reportId: report._id, ownerId: customer.user.id },
      "refused access to another customer's report",
    );
    warn.mockRestore();
    const own = await call(file.loader, `/files/reports/${report._id}`, { auth: { cookie: customer.cookie }, params: { reportId: report._id } });
    expect(own.status).toBe(200);
    expect(Buffer.from(await own.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it("refuses a tampered, foreign or expired signature", async () => {
    const response = await postUpload(staff, services[0].id, { file: { name: "a.png", bytes: samples.png() }, title: "Mockups", userId: customer.user.id });
    const { data: report } = await response.json();
    const { url } = await downloadThroughSignedUrl(customer, report._id);
    const sig = url.searchParams.get("sig")!;
    const tampered = `${url.pathname}?expires=${Number(url.searchParams.get("expires")) + 1000}&sig=${sig}`;
    expect((await call(file.loader, tampered, { params: { reportId: report._id } })).status).toBe(404);
    const expired = `${url.pathname}?expires=${Date.now() - 1}&sig=${sig}`;
    expect((await call(file.loader, expired, { params: { reportId: report._id } })).status).toBe(404);
    // A link signed for one report does not open another.
    const otherReport = await postUpload(staff, services[0].id, { file: { name: "b.pdf", bytes: samples.pdf() }, title: "Other", userId: customer.user.id });
    const otherId = (await otherReport.json()).data._id;
    expect((await call(file.loader, `/files/reports/${otherId}${url.search}`, { params: { reportId: otherId } })).status).toBe(404);
  });

  it("accepts every allowed type, and a file of exactly 10 MiB", async () => {
    for (const [name, bytes] of [
      ["photo.jpg", samples.jpeg()],
      ["photo.JPEG", samples.jpeg()],
      ["legacy.doc", samples.doc()],
      ["exact.pdf", samples.pdfOfSize(10 * MiB)],
    ] as const) {
      const response = await postUpload(staff, services[0].id, { file: { name, bytes }, title: name, userId: customer.user.id });
      expect(response.status, name).toBe(201);
    }
  });

  describe("bad input gets the spec's message and leaves nothing behind", () => {
    const cases: [string, () => Parameters<typeof postUpload>[2] | "never-bought" | "staff-user", number, string][] = [
      ["10 MiB + 1 byte", () => ({ file: { name: "big.pdf", bytes: samples.pdfOfSize(10 * MiB + 1) }, title: "Big" }), 413, "File size must be less than 10MB"],
      ["an empty file", () => ({ file: { name: "empty.pdf", bytes: Buffer.alloc(0) }, title: "Empty" }), 400, "Please select a file to upload"],
      ["no file at all", () => ({ title: "Nothing" }), 400, "Please select a file to upload"],
      [
        "a .pdf that is HTML",
        () => ({ file: { name: "report.pdf", bytes: samples.html() }, title: "Fake" }),
        415,
        "Please upload only PDF, DOC, DOCX, or image files",
      ],
      [
        "an .exe renamed .png",
        () => ({ file: { name: "setup.png", bytes: samples.exe() }, title: "Exe" }),
        415,
        "Please upload only PDF, DOC, DOCX, or image files",
      ],
      ["an .exe", () => ({ file: { name: "setup.exe", bytes: samples.exe() }, title: "Exe" }), 415, "Please upload only PDF, DOC, DOCX, or image files"],
      [
        "a PNG named .pdf",
        () => ({ file: { name: "image.pdf", bytes: samples.png() }, title: "Mismatch" }),
        415,
        "Please upload only PDF, DOC, DOCX, or image files",
      ],
      ["a title of spaces", () => ({ file: { name: "ok.pdf", bytes: samples.pdf() }, title: "   " }), 400, "Please enter a report title"],
      ["no title", () => ({ file: { name: "ok.pdf", bytes: samples.pdf() } }), 400, "Please enter a report title"],
      ["a service the customer never bought", () => "never-bought", 400, "This customer has not purchased this service."],
      ["a userId that is not a customer", () => "staff-user", 404, "Customer not found."],
    ];
    for (const [name, input, status, message] of cases) {
      it(name, async () => {
        const before = { rows: await reportCount(), files: filesUnder(env.storageDir).length };
        const value = input();
        const response =
          value === "never-bought"
            ? await postUpload(staff, services[5].id, { file: { name: "ok.pdf", bytes: samples.pdf() }, title: "T", userId: customer.user.id })
            : value === "staff-user"
              ? await postUpload(staff, services[0].id, { file: { name: "ok.pdf", bytes: samples.pdf() }, title: "T", userId: staff.user.id })
              : await postUpload(staff, services[0].id, { ...value, userId: customer.user.id });
        await expectUploadRefused(response, status, message);
        expect({ rows: await reportCount(), files: filesUnder(env.storageDir).length }).toEqual(before);
      });
    }

    it("a name with control characters is refused with 400 and nothing is stored", async () => {
      const before = filesUnder(env.storageDir).length;
      const response = await postRawUpload(
        staff,
        services[0].id,
        { title: "Bell", userId: customer.user.id },
        { name: "pass\u0007wd\u001b.pdf", bytes: samples.pdf() },
      );
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ message: "The file name contains characters that are not allowed (control or text-direction characters)" });
      expect(filesUnder(env.storageDir).length).toBe(before);
    });

    it("a name with ../ and bidi overrides is stored under a generated key and shown cleaned", async () => {
      const response = await postRawUpload(
        staff,
        services[0].id,
        { title: "Traversal", userId: customer.user.id },
        { name: "..\\..\\etc/pass\u202ewd.pdf", bytes: samples.pdf() },
      );
      expect(response.status).toBe(201);
      const { data } = await response.json();
      expect(data.fileName).toBe("passwd.pdf");
      const { response: served } = await downloadThroughSignedUrl(customer, data._id);
      expect(served.headers.get("Content-Disposition")).toBe(`attachment; filename="passwd.pdf"; filename*=UTF-8''passwd.pdf`);
      for (const f of filesUnder(env.storageDir)) expect(path.relative(env.storageDir, f)).toMatch(/^reports\/[0-9a-f-]{36}\.(pdf|png|jpg|jpeg|doc)$/);
    });

    it("a customer may not upload, and an unknown service is 404 before the body is read", async () => {
      const before = { rows: await reportCount(), files: filesUnder(env.storageDir).length };
      await expectUploadRefused(
        await postUpload(customer, services[0].id, { file: { name: "ok.pdf", bytes: samples.pdf() }, title: "Mine", userId: customer.user.id }),
        403,
        "You are not allowed to do that.",
      );
      await expectUploadRefused(
        await postUpload(staff, "3f1c0e7e-0000-4000-8000-000000000000", {
          file: { name: "ok.pdf", bytes: samples.pdf() },
          title: "T",
          userId: customer.user.id,
        }),
        404,
        "Service not found.",
      );
      expect({ rows: await reportCount(), files: filesUnder(env.storageDir).length }).toEqual(before);
    });
  });

  it("stops reading a 2 GB upload at the limit instead of writing it whole", async () => {
    const boundary = "----dashboardtest";
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="report"; filename="huge.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n`,
    );
    const chunk = Buffer.alloc(MiB, 0x20);
    let pulled = 0;
    const total = 2048 * MiB;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(head);
      },
      pull(controller) {
        if (pulled >= total) return controller.close();
        pulled += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const request = new Request("http://localhost/upload", {
      method: "POST",
      body,
      headers: { "Content-Type": `multipart/form-data; boundary=${boundary}` },
      duplex: "half",
    } as RequestInit);
    const before = filesUnder(env.storageDir).length;
    const error = await receiveReportUpload(request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(413);
    expect(pulled).toBeLessThan(16 * MiB);
    expect(filesUnder(env.storageDir).length).toBe(before);
  });

  it("refuses a declared Content-Length over the limit without reading the body", async () => {
    const request = new Request("http://localhost/upload", {
      method: "POST",
      headers: { "Content-Type": "multipart/form-data; boundary=x", "Content-Length": String(2 * 1024 * MiB) },
      body: "--x--",
    });
    const error = await receiveReportUpload(request).catch((e: unknown) => e);
    expect((error as HttpError).status).toBe(413);
  });
});
