import { createReadableStreamFromReadable } from "@remix-run/node";

import { openPostMedia, type PostMediaRow } from "~/models/posts.server";
import { logger } from "~/utils/logger.server";
import { pageNotFound } from "~/web/guards.server";

/**
 * A post's image or video as a file route sends it, once the route has decided who may read it:
 * streamed from storage, never cached, sandboxed; a file gone from storage is the route's 404.
 * `headers` adds what one route needs (a file name, a referrer policy).
 */
export async function servePostMedia(media: PostMediaRow, headers: Record<string, string> = {}): Promise<Response> {
  let body;
  try {
    body = await openPostMedia(media);
  } catch (error) {
    logger.error({ err: error, mediaId: media.id }, "post media missing from storage");
    return pageNotFound();
  }
  return new Response(createReadableStreamFromReadable(body), {
    headers: {
      "Content-Type": media.mimeType,
      "Content-Length": String(media.fileSize),
      "Cache-Control": "private, no-store",
      "Content-Security-Policy": "default-src 'none'; sandbox",
      "X-Content-Type-Options": "nosniff",
      ...headers,
    },
  });
}
