/** The report upload's limits and messages (10 MiB; pdf, doc, docx, jpeg, png), shared by the modal and the server. */

export const MAX_REPORT_BYTES = 10 * 1024 * 1024;
/** Fields of any form, urlencoded or multipart (an upload's parts included). */
export const MAX_FORM_FIELDS = 1000;
export const TOO_MANY_FIELDS_MESSAGE = "The form has too many fields.";
export const UPLOAD_MESSAGES = {
  title: "Please enter a report title",
  file: "Please select a file to upload",
  size: "File size must be less than 10MB",
  type: "Please upload only PDF, DOC, DOCX, or image files",
} as const;

/**
 * Extension → the MIME type its content must have: the one list of what may be uploaded, for
 * reports and (with gif and webp added) for chat attachments.
 */
export const REPORT_TYPES: Readonly<Record<string, string>> = {
  pdf: "application/pdf",
  doc: "application/msword",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
};
const REPORT_EXTENSIONS = Object.keys(REPORT_TYPES);
export const REPORT_ACCEPT = REPORT_EXTENSIONS.map((e) => `.${e}`).join(",");

export function extensionOf(fileName: string): string {
  const match = /\.([a-z0-9]+)$/i.exec(fileName);
  return match ? match[1].toLowerCase() : "";
}

/** The browser's first look (the server checks the content too): the spec's message, or undefined. */
export function checkReportFile(file: { name: string; size: number }): string | undefined {
  if (file.size === 0) return UPLOAD_MESSAGES.file;
  if (file.size > MAX_REPORT_BYTES) return UPLOAD_MESSAGES.size;
  if (!REPORT_EXTENSIONS.includes(extensionOf(file.name))) return UPLOAD_MESSAGES.type;
  return undefined;
}

/** A new version's note: why the report was replaced (decision 221). */
export const REPORT_NOTE_MAX = 1000;
/** A deleted report is kept this long for staff, then purged with its files. */
export const REPORT_PURGE_AFTER_MS = 30 * 24 * 60 * 60 * 1000;
