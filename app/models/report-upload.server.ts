import crypto from "node:crypto";
import { Readable } from "node:stream";
import { unstable_parseMultipartFormData } from "@remix-run/node";
import { fileTypeFromBuffer } from "file-type";

import { extensionOf, MAX_FORM_FIELDS, MAX_REPORT_BYTES, REPORT_TYPES, TOO_MANY_FIELDS_MESSAGE, UPLOAD_MESSAGES } from "~/domain/report";
import { controlCharacterMessage, hasControlCharacters } from "~/domain/zod";
import { HttpError } from "~/utils/http.server";
import { storage } from "~/utils/storage.server";

/*
 * Receiving a report file: the multipart body is parsed as it arrives, the file part is checked
 * (extension, then magic bytes of its first bytes) and streamed to storage under a generated key,
 * and the 10 MiB limit is counted on the way, so a huge upload is refused at the limit and never
 * written whole. Whatever fails, the stored object is deleted before the error leaves.
 */

export { UPLOAD_MESSAGES, extensionOf };

const DOCX = REPORT_TYPES.docx;

const SNIFF_BYTES = 64 * 1024;
const MAX_FIELD_BYTES = 16 * 1024;
/** Multipart framing, the text fields and any other part, on top of the file itself. */
const MAX_ENVELOPE_BYTES = 64 * 1024;
const OLE2 = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
const ZIP = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

/** Closing the connection stops the client sending the rest of a huge body we will never read. */
export const tooLarge = () => new HttpError(413, UPLOAD_MESSAGES.size, "PAYLOAD_TOO_LARGE", { Connection: "close" });
export const wrongType = () => new HttpError(415, UPLOAD_MESSAGES.type, "UNSUPPORTED_MEDIA_TYPE");
export const noFile = () => new HttpError(400, UPLOAD_MESSAGES.file, "FILE_REQUIRED");

/** The name a person gave the file, reduced to something safe to show and to put in a header. */
export function sanitizeFileName(raw: string): string {
  const base = raw.split(/[/\\]/).pop() ?? "";
  const cleaned = base
    // Control characters, and bidi overrides that could disguise the extension.
    // eslint-disable-next-line no-control-regex -- matching control characters is the point
    .replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, "")
    .replace(/^[.\s]+/, "")
    .trim();
  // The last 200 characters (code points, never half of a surrogate pair), so the extension stays.
  const characters = Array.from(cleaned);
  return characters.length > 200 ? characters.slice(-200).join("") : cleaned;
}

/** The content must be what the extension says it is. */
export async function contentMatches(extension: string, head: Buffer, types: Readonly<Record<string, string>> = REPORT_TYPES): Promise<boolean> {
  const expected = types[extension];
  if (!expected) return false;
  if (extension === "doc") return head.subarray(0, 8).equals(OLE2);
  const detected = await fileTypeFromBuffer(head);
  if (extension === "docx") {
    // A .docx is a zip whose parts name word/; file-type may only see "zip" in the first bytes.
    if (detected?.mime === DOCX) return true;
    const latin = head.toString("latin1");
    return head.subarray(0, 4).equals(ZIP) && latin.includes("[Content_Types].xml") && (detected?.ext === "zip" || detected === undefined);
  }
  return detected?.mime === expected;
}

export interface StoredUpload {
  key: string;
  fileName: string;
  size: number;
  mimeType: string;
}

export interface ReceivedUpload {
  fields: Record<string, string>;
  file: StoredUpload | null;
  /** Removes the stored file; for callers whose later checks fail. */
  discard(): Promise<void>;
}

/** Storage failed (not the client's input): passed on as it is, unlike a parser error. */
class StorageFailure extends Error {
  constructor(cause: unknown) {
    super("storage failed", { cause });
  }
}

type Part = { name: string; filename?: string; contentType: string; data: AsyncIterable<Uint8Array> };

/** Counts what is not the file against MAX_ENVELOPE_BYTES. */
type Spend = (bytes: number) => void;

async function drain(data: AsyncIterable<Uint8Array>, spend: Spend) {
  for await (const chunk of data) spend(chunk.byteLength);
}

async function readField(data: AsyncIterable<Uint8Array>, spend: Spend): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of data) {
    spend(chunk.byteLength);
    size += chunk.byteLength;
    if (size > MAX_FIELD_BYTES) throw new HttpError(400, "A form field is too long.", "INVALID_INPUT");
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** Reads the first bytes for sniffing, then hands back the rest still to come. */
async function peek(data: AsyncIterable<Uint8Array>) {
  const iterator = data[Symbol.asyncIterator]();
  const chunks: Buffer[] = [];
  let size = 0;
  let done = false;
  while (size < SNIFF_BYTES) {
    const next = await iterator.next();
    if (next.done) {
      done = true;
      break;
    }
    chunks.push(Buffer.from(next.value));
    size += next.value.byteLength;
  }
  return { head: Buffer.concat(chunks), iterator, done };
}

async function* limited(head: Buffer, iterator: AsyncIterator<Uint8Array>, done: boolean, maxBytes: number) {
  let size = head.byteLength;
  if (size > maxBytes) throw tooLarge();
  yield head;
  if (done) return;
  for (;;) {
    const next = await iterator.next();
    if (next.done) return;
    size += next.value.byteLength;
    if (size > maxBytes) throw tooLarge();
    yield Buffer.from(next.value);
  }
}

/** What an upload may be and where it is stored: reports by default; chat attachments pass their own. */
export interface UploadRules {
  types: Readonly<Record<string, string>>;
  keyPrefix: string;
  /** The file's limit (default the report's 10 MiB); past it, 413. */
  maxBytes?: number;
  /** Runs when a file part begins, before any of its bytes is read (a form whose file is optional counts an upload only then); throwing refuses it. */
  beforeFile?: () => Promise<void>;
}
const REPORT_RULES: UploadRules = { types: REPORT_TYPES, keyPrefix: "reports" };

/** Parses a report upload; the file field is `report` (the spec's name). */
export async function receiveReportUpload(request: Request, fileField = "report", rules: UploadRules = REPORT_RULES): Promise<ReceivedUpload> {
  const type = request.headers.get("Content-Type") ?? "";
  if (!type.toLowerCase().startsWith("multipart/form-data")) throw noFile();
  const maxBytes = rules.maxBytes ?? MAX_REPORT_BYTES;
  const length = Number(request.headers.get("Content-Length") ?? "0");
  if (length > maxBytes + MAX_ENVELOPE_BYTES) throw tooLarge();

  let stored: StoredUpload | null = null;
  let otherBytes = 0;
  const spend: Spend = (bytes) => {
    otherBytes += bytes;
    if (otherBytes > MAX_ENVELOPE_BYTES) throw tooLarge();
  };
  const discard = async () => {
    if (stored) await storage.delete(stored.key).catch(() => {});
    stored = null;
  };

  let parts = 0;
  async function handle(part: Part): Promise<string | undefined> {
    if (++parts > MAX_FORM_FIELDS) throw new HttpError(413, TOO_MANY_FIELDS_MESSAGE, "PAYLOAD_TOO_LARGE");
    if (part.filename === undefined) return readField(part.data, spend);
    if (part.name !== fileField || stored) {
      await drain(part.data, spend);
      return undefined;
    }
    if (hasControlCharacters(part.filename)) throw new HttpError(400, controlCharacterMessage("The file name"), "INVALID_INPUT");
    const fileName = sanitizeFileName(part.filename);
    const extension = extensionOf(fileName);
    if (!part.filename && !fileName) {
      // The browser sends an empty, nameless part when no file was chosen.
      await drain(part.data, spend);
      return undefined;
    }
    await rules.beforeFile?.();
    if (!rules.types[extension]) throw wrongType();
    const { head, iterator, done } = await peek(part.data);
    if (head.byteLength === 0) throw noFile();
    if (head.byteLength > maxBytes) throw tooLarge();
    if (!(await contentMatches(extension, head, rules.types))) throw wrongType();

    const mimeType = rules.types[extension]!;
    const key = `${rules.keyPrefix}/${crypto.randomUUID()}.${extension}`;
    let size = 0;
    const counted = Readable.from(
      (async function* () {
        for await (const chunk of limited(head, iterator, done, maxBytes)) {
          size += chunk.byteLength;
          yield chunk;
        }
      })(),
    );
    await storage.put(key, counted, mimeType).catch((error: unknown) => {
      throw error instanceof HttpError ? error : new StorageFailure(error);
    });
    stored = { key, fileName, size, mimeType };
    return undefined;
  }

  try {
    const form = await unstable_parseMultipartFormData(request, (part) => handle(part as Part));
    const fields: Record<string, string> = {};
    for (const [name, value] of form) if (typeof value === "string" && !(name in fields)) fields[name] = value;
    return { fields, file: stored, discard };
  } catch (error) {
    await discard();
    if (error instanceof HttpError) throw error;
    if (error instanceof StorageFailure) throw error.cause;
    // Anything else is the multipart parser refusing the body (no boundary, a bad header, cut short).
    throw new HttpError(400, "The upload could not be read. Please try again.", "MALFORMED_UPLOAD");
  }
}
