import { createReadableStreamFromReadable, type LoaderFunctionArgs } from "@remix-run/node";

import { openPostMedia } from "~/models/posts.server";
import { reviewLinkMedia } from "~/models/review-links.server";
import { logger } from "~/utils/logger.server";
import { pageNotFound } from "~/web/guards.server";

/** GET /review/:token/media/:mediaId — a file of the post a valid review link opens (decision 293), for its page; anything else 404. */
export async function loader({ params }: LoaderFunctionArgs) {
  const media = await reviewLinkMedia(params.token ?? "", params.mediaId ?? "");
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
      "Cache-Control": "private, no-store",
      "Content-Security-Policy": "default-src 'none'; sandbox",
      "Referrer-Policy": "same-origin",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
