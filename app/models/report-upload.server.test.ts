import zlib from "node:zlib";
import { describe, expect, it } from "vitest";

import { contentDisposition, createDownloadUrl, DOWNLOAD_URL_TTL_MS, verifyDownloadSignature } from "./report-links.server";
import { contentMatches, sanitizeFileName } from "./report-upload.server";

/** A stored (uncompressed) zip with the given entries, as Word's .docx files are zips. */
function zip(entries: Record<string, string>) {
  const parts: Buffer[] = [];
  for (const [name, text] of Object.entries(entries)) {
    const data = Buffer.from(text);
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt32LE(zlib.crc32(data), 14);
    header.writeUInt32LE(data.length, 18);
    header.writeUInt32LE(data.length, 22);
    header.writeUInt16LE(Buffer.byteLength(name), 26);
    parts.push(header, Buffer.from(name), data);
  }
  return Buffer.concat(parts);
}

describe("report file checks", () => {
  it("a .docx must be a Word zip; a plain zip or a PDF named .docx is refused", async () => {
    const docx = zip({ "[Content_Types].xml": "<Types/>", "_rels/.rels": "<Relationships/>", "word/document.xml": "<w:document/>" });
    expect(await contentMatches("docx", docx)).toBe(true);
    expect(await contentMatches("docx", zip({ "notes.txt": "hello" }))).toBe(false);
    expect(await contentMatches("docx", Buffer.from("%PDF-1.4\n"))).toBe(false);
  });

  it("a .doc must start with the OLE2 signature", async () => {
    expect(await contentMatches("doc", Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]))).toBe(true);
    expect(await contentMatches("doc", Buffer.from("{\\rtf1 not a doc}"))).toBe(false);
  });

  it("file names lose path parts, control characters and bidi overrides", () => {
    expect(sanitizeFileName("C:\\Users\\me\\report.pdf")).toBe("report.pdf");
    expect(sanitizeFileName("../../etc/passwd")).toBe("passwd");
    expect(sanitizeFileName("invoice\u202Efdp.exe")).toBe("invoicefdp.exe");
    expect(sanitizeFileName("a\u0000b\u001fc.png")).toBe("abc.png");
    expect(sanitizeFileName("...hidden.pdf")).toBe("hidden.pdf");
    // Over 200 characters: the last 200 are kept (the extension with them), never half an emoji.
    const long = sanitizeFileName(`${"a".repeat(100)}${"😀".repeat(150)}.docx`);
    expect(Array.from(long)).toHaveLength(200);
    expect(long.endsWith("😀.docx")).toBe(true);
    expect(long).not.toMatch(/[\uD800-\uDFFF]/u);
    expect(Buffer.from(long, "utf8").toString("utf8")).toBe(long);
  });

  it("Content-Disposition carries an ASCII fallback and the exact UTF-8 name", () => {
    expect(contentDisposition('Plan "Q1" für Zoë.pdf')).toBe(
      `attachment; filename="Plan _Q1_ f_r Zo_.pdf"; filename*=UTF-8''Plan%20%22Q1%22%20f%C3%BCr%20Zo%C3%AB.pdf`,
    );
    expect(contentDisposition("it's (final).pdf")).toBe(`attachment; filename="it's (final).pdf"; filename*=UTF-8''it%27s%20%28final%29.pdf`);
  });

  it("a signed link is valid for five minutes, for its own report only", () => {
    const now = Date.now();
    const url = new URL(createDownloadUrl("11111111-1111-4111-8111-111111111111", now));
    const [expires, sig] = [url.searchParams.get("expires"), url.searchParams.get("sig")];
    expect(Number(expires)).toBe(now + DOWNLOAD_URL_TTL_MS);
    expect(verifyDownloadSignature("11111111-1111-4111-8111-111111111111", expires, sig, now + DOWNLOAD_URL_TTL_MS - 1)).toBe(true);
    expect(verifyDownloadSignature("11111111-1111-4111-8111-111111111111", expires, sig, now + DOWNLOAD_URL_TTL_MS + 1)).toBe(false);
    expect(verifyDownloadSignature("22222222-2222-4222-8222-222222222222", expires, sig, now)).toBe(false);
    expect(verifyDownloadSignature("11111111-1111-4111-8111-111111111111", expires, `${sig}x`, now)).toBe(false);
    expect(verifyDownloadSignature("11111111-1111-4111-8111-111111111111", "1e99", sig, now)).toBe(false);
  });
});
