import { z } from "zod";

import { statusData } from "~/domain/schemas/api";
import { postJson } from "~/domain/schemas/calendar";
import { addPostMedia, toPostJson } from "~/models/posts.server";
import { methodNotAllowed } from "~/utils/http.server";
import { apiRoute } from "~/web/api.server";

/* POST /api/posts/:id/media multipart `file` — an image or video for a post (team; png, jpeg, webp, gif, mp4; at most 50 MiB). */

const params = z.object({ id: z.string() });
const upload = z.object({
  file: z.unknown().meta({ description: "The image or video (png, jpeg, webp, gif, mp4; at most 50 MiB).", contentMediaType: "application/octet-stream" }),
});

export const action = apiRoute(
  {
    method: "POST",
    auth: "team",
    params,
    rawBody: { contentType: "multipart/form-data", schema: upload },
    status: 201,
    response: statusData(z.object({ post: postJson })),
    errors: [404, 409, 413],
    summary: "Add an image or video to a post (team).",
  },
  async ({ user, params, request }) => ({ status: "success", data: { post: toPostJson(await addPostMedia(user, params.id, request)) } }),
);

export const loader = methodNotAllowed;
