import { createReadableStreamFromReadable, type LoaderFunctionArgs } from "@remix-run/node";

import { attachmentDisposition, findAttachment, openAttachmentFile, verifyAttachmentSignature } from "~/models/chat-attachments.server";
import { logger } from "~/utils/logger.server";
import { pageNotFound } from "~/web/guards.server";

/*
 * GET /files/chat/:attachmentId?expires=…&sig=… — a chat attachment, through a signed link from
 * GET /api/chat/attachments/:id (only thread members get one). Images inline (thumbnails),
 * PDFs as a download; anything else, or a bad or expired signature: 404.
 */

export async function loader({ request, params }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const id = params.attachmentId ?? "";
  if (!verifyAttachmentSignature(id, url.searchParams.get("expires"), url.searchParams.get("sig"))) return pageNotFound();
  const row = await findAttachment(id);
  if (!row) return pageNotFound();
  let body;
  try {
    body = await openAttachmentFile(row);
  } catch (error) {
    logger.error({ err: error, attachmentId: id }, "chat attachment missing from storage");
    return pageNotFound();
  }
  return new Response(createReadableStreamFromReadable(body), {
    headers: {
      "Content-Type": row.mimeType,
      "Content-Length": String(row.fileSize),
      "Content-Disposition": attachmentDisposition(row),
      // The link itself expires in five minutes; the browser may keep the bytes for as long.
      "Cache-Control": "private, max-age=300",
      "Content-Security-Policy": "default-src 'none'; sandbox",
    },
  });
}
