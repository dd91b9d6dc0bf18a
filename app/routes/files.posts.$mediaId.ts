import { createReadableStreamFromReadable, type LoaderFunctionArgs } from "@remix-run/node";

import { getPostMediaFor, openPostMedia } from "~/models/posts.server";
import { contentDisposition } from "~/models/report-links.server";
import { logger } from "~/utils/logger.server";
import { pageNotFound, requireFileReader } from "~/web/guards.server";

/*
 * GET /files/posts/:mediaId — a post's image or video at a stable address: staff, and the post's
 * customer once it is out of draft (session cookie or bearer, asked on every request). Signed out:
 * the sign-in page; anyone else (an account held to its second-factor set-up too), or no such file: 404. Served inline, sandboxed.
 */

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireFileReader(request);
  const media = await getPostMediaFor(user, params.mediaId ?? "");
  if (!media) return pageNotFound();
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
      "Content-Disposition": contentDisposition(media.fileName).replace(/^attachment/, "inline"),
      "Cache-Control": "private, no-store",
      "Content-Security-Policy": "default-src 'none'; sandbox",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
