/*
 * What one account may keep and send as chat attachments (docs/decisions/130). The
 * numbers are contracts: the API answers 429 past the rate and 413 past the quota with these
 * messages, and a file uploaded but never sent is removed after UNSENT_ATTACHMENT_TTL_MS.
 */

/** Uploads per account in one window: a person sends a few screenshots, not a stream of files. */
export const ATTACHMENT_UPLOADS_PER_WINDOW = 10;
export const ATTACHMENT_UPLOAD_WINDOW_SECONDS = 60;

/** Bytes one account may keep in chat attachments, sent or not (20 files at the 10 MiB cap). */
export const ATTACHMENT_QUOTA_BYTES = 200 * 1024 * 1024;

/** An upload never attached to a sent message is deleted (row and stored file) after a day. */
export const UNSENT_ATTACHMENT_TTL_MS = 24 * 60 * 60 * 1000;

export const ATTACHMENT_LIMIT_MESSAGES = {
  rate: (wait: string) => `You are sending files too quickly. Please try again ${wait}.`,
  quota: "Your files in chat have reached the 200 MB limit. Files you uploaded but did not send are removed after a day.",
} as const;
