import type { LoaderFunctionArgs } from "@remix-run/node";

import { findSignedPostMedia } from "~/models/post-media-links.server";
import { getPostMediaFor } from "~/models/posts.server";
import { contentDisposition } from "~/models/report-links.server";
import { pageNotFound, requireFileReader } from "~/web/guards.server";
import { servePostMedia } from "~/web/post-media.server";

/*
 * GET /files/posts/:mediaId — a post's image or video at a stable address: staff, and the post's
 * customer once it is out of draft (session cookie or bearer, asked on every request). Signed out:
 * the sign-in page; a valid signed link (24 hours) opens it for anyone; anyone else (an account held to its second-factor set-up too), or no such file: 404. Served inline, sandboxed.
 */

export async function loader({ request, params }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  // A 24-hour signed link (post.due, docs/integrations.md) opens the file without signing in.
  const media = url.searchParams.has("sig")
    ? await findSignedPostMedia(params.mediaId ?? "", url.searchParams.get("expires"), url.searchParams.get("sig"))
    : await getPostMediaFor(await requireFileReader(request), params.mediaId ?? "");
  if (!media) return pageNotFound();
  return servePostMedia(media, { "Content-Disposition": contentDisposition(media.fileName).replace(/^attachment/, "inline") });
}
