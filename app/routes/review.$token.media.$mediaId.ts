import type { LoaderFunctionArgs } from "@remix-run/node";

import { reviewLinkMedia } from "~/models/review-links.server";
import { pageNotFound } from "~/web/guards.server";
import { servePostMedia } from "~/web/post-media.server";

/** GET /review/:token/media/:mediaId — a file of the post a valid review link opens (decision 293), for its page; anything else 404. */
export async function loader({ params }: LoaderFunctionArgs) {
  const media = await reviewLinkMedia(params.token ?? "", params.mediaId ?? "");
  if (!media) return pageNotFound();
  return servePostMedia(media, { "Referrer-Policy": "same-origin" });
}
