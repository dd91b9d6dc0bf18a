import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { expect } from "vitest";

import * as download from "~/routes/api+/reports+/$id.download";
import * as upload from "~/routes/api+/reports+/service.$serviceId.upload";
import * as file from "~/routes/files.reports.$reportId";
import { db, schema } from "~/utils/db.server";

import { call, readJson, type Account } from "./dashboard-helpers";

/**
 * Shared by the disk and the S3 upload tests: sample files and the upload/download round trip,
 * so both storages are held to the same behaviour.
 */

export const MiB = 1024 * 1024;

export const samples = {
  pdf: () => Buffer.from("%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n"),
  png: () =>
    Buffer.from("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082", "hex"),
  jpeg: () =>
    Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]), Buffer.alloc(200, 7), Buffer.from([0xff, 0xd9])]),
  doc: () => Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(504, 0)]),
  html: () => Buffer.from("<!doctype html><html><body><script>alert(1)</script></body></html>"),
  exe: () => Buffer.concat([Buffer.from("MZ"), Buffer.alloc(62, 0), Buffer.from("PE\0\0"), Buffer.alloc(400, 1)]),
  /** A PDF of exactly n bytes. */
  pdfOfSize: (n: number) => {
    const head = Buffer.from("%PDF-1.4\n");
    return Buffer.concat([head, Buffer.alloc(n - head.length, 0x20)]);
  },
};

export interface UploadInput {
  file?: { name: string; bytes: Buffer; type?: string } | null;
  title?: string;
  description?: string;
  userId?: string;
  purchaseId?: string;
}

export function uploadForm({ file, title, description, userId, purchaseId }: UploadInput) {
  const form = new FormData();
  // The spec's client sends the file first, before the text fields.
  if (file) form.append("report", new Blob([new Uint8Array(file.bytes)], { type: file.type ?? "application/octet-stream" }), file.name);
  if (title !== undefined) form.append("title", title);
  if (description !== undefined) form.append("description", description);
  if (userId !== undefined) form.append("userId", userId);
  if (purchaseId !== undefined) form.append("purchaseId", purchaseId);
  return form;
}

/**
 * A multipart body written byte by byte, for what FormData would escape (control characters in
 * a file name reach the server raw from hand-made clients).
 */
export function rawMultipart(fields: Record<string, string>, file: { name: string; bytes: Buffer }) {
  const boundary = "----raw-boundary-7d1";
  const parts = [
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="report"; filename="${file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      "utf8",
    ),
    file.bytes,
    Buffer.from("\r\n"),
    ...Object.entries(fields).map(([k, v]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`, "utf8")),
    Buffer.from(`--${boundary}--\r\n`),
  ];
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

export async function postUpload(staff: Account | { cookie: string }, serviceId: string, input: UploadInput) {
  return call(upload.action, `/api/reports/service/${serviceId}/upload`, {
    auth: staff,
    method: "POST",
    body: uploadForm(input),
    params: { serviceId },
  });
}

export async function postRawUpload(staff: Account, serviceId: string, fields: Record<string, string>, file: { name: string; bytes: Buffer }) {
  const { body, contentType } = rawMultipart(fields, file);
  return call(upload.action, `/api/reports/service/${serviceId}/upload`, {
    auth: staff,
    method: "POST",
    body,
    params: { serviceId },
    headers: { "Content-Type": contentType },
  });
}

/** Mail bodies are quoted-printable: undo the soft line breaks before looking for a link. */
export const unfoldMail = (raw: string) => raw.replace(/=\r?\n/g, "");

export async function reportCount() {
  return (await db.select({ id: schema.reports.id }).from(schema.reports)).length;
}

export async function expectUploadRefused(response: Response, status: number, message: string) {
  const body = await readJson(response);
  expect({ status: response.status, message: body.message }).toEqual({ status, message });
  expect(body).toMatchObject({ success: false, status: "error", error: message });
  expect(typeof body.code).toBe("string");
}

/** Files under a directory, recursively (the disk storage's leftovers). */
export function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}

/** Asks for a signed link as `who`, then fetches the file through it without any header. */
export async function downloadThroughSignedUrl(who: Account, reportId: string) {
  const link = await call(download.loader, `/api/reports/${reportId}/download`, { auth: who, params: { id: reportId } });
  expect(link.status).toBe(200);
  const { data } = await readJson<{ data: { downloadUrl: string; fileName: string } }>(link);
  const url = new URL(data.downloadUrl);
  const response = await call(file.loader, url.pathname + url.search, { params: { reportId } });
  return { response, fileName: data.fileName, url };
}

export async function storedKey(reportId: string) {
  const [row] = await db.select({ key: schema.reports.storageKey }).from(schema.reports).where(eq(schema.reports.id, reportId));
  return row?.key;
}
