import { createReadableStreamFromReadable, type LoaderFunctionArgs } from "@remix-run/node";

import {
  attachmentDisposition,
  findAttachment,
  getAttachmentFor,
  openAttachmentFile,
  verifyAttachmentSignature,
  type AttachmentRow,
} from "~/models/chat-attachments.server";
import { HttpError } from "~/utils/http.server";
import { logger } from "~/utils/logger.server";
import { pageNotFound, requireFileReader } from "~/web/guards.server";

/*
 * GET /files/chat/:attachmentId — a chat attachment at a stable address (docs/decisions/180):
 * the signed-in member's session is asked on every request, so a thumbnail or a link on a page
 * left open for hours still works, and stops working the moment access ends. A five-minute
 * signed link (`?expires=…&sig=…`, from GET /api/chat/attachments/:id) serves it without a
 * session. Images inline (thumbnails), anything else as a download. Signed out: the sign-in
 * page; not a member, or no such file: 404.
 */

export async function loader({ request, params }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const id = params.attachmentId ?? "";
  const row = verifyAttachmentSignature(id, url.searchParams.get("expires"), url.searchParams.get("sig"))
    ? await findAttachment(id)
    : await memberAttachment(request, id);
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
      // Asked again every time: access is checked per request (the server sets the same for /files/).
      "Cache-Control": "private, no-store",
      "Content-Security-Policy": "default-src 'none'; sandbox",
    },
  });
}

/** The attachment when the signed-in user may open it, else null (404 for a stranger as for a missing file). */
async function memberAttachment(request: Request, id: string): Promise<AttachmentRow | null> {
  const user = await requireFileReader(request);
  try {
    return await getAttachmentFor(user, id);
  } catch (error) {
    if (error instanceof HttpError && error.status === 404) return null;
    throw error;
  }
}
