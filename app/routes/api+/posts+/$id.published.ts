import { z } from "zod";

import { publishPostSchema } from "~/domain/post-publishing";
import { statusData } from "~/domain/schemas/api";
import { postJson } from "~/domain/schemas/calendar";
import { markPostPublished } from "~/models/post-publishing.server";
import { toPostJson } from "~/models/posts.server";
import { methodNotAllowed } from "~/utils/http.server";
import { apiRoute, uuidParam } from "~/web/api.server";

/* POST /api/posts/:id/published {permalink, publishedAt?}: a publishing tool reports where an approved post went live (decision 285). */

export const action = apiRoute(
  {
    method: "POST",
    auth: "team",
    scope: "posts:write",
    params: z.object({ id: uuidParam("Post not found.") }),
    body: publishPostSchema,
    response: statusData(z.object({ post: postJson })),
    errors: [404, 409],
    summary: "Mark an approved post published with its permalink (staff, or an API key with posts:write).",
  },
  async ({ user, params, body }) => ({ status: "success", data: { post: toPostJson(await markPostPublished(user, params.id, body)) } }),
);

export const loader = methodNotAllowed;
