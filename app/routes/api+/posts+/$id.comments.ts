import { z } from "zod";

import { statusData } from "~/domain/schemas/api";
import { commentJson, commentSchema } from "~/domain/schemas/calendar";
import { addPostComment, toCommentJson } from "~/models/posts.server";
import { methodNotAllowed } from "~/utils/http.server";
import { apiRoute } from "~/web/api.server";

/* POST /api/posts/:id/comments {body} — a comment in a post's thread (its customer, not on drafts; staff). */

const params = z.object({ id: z.string() });

export const action = apiRoute(
  {
    method: "POST",
    auth: "any",
    params,
    body: commentSchema,
    status: 201,
    response: statusData(z.object({ comment: commentJson })),
    errors: [404],
    summary: "Comment on a post (its customer, except on drafts; team).",
  },
  async ({ user, params, body }) => ({ status: "success", data: { comment: toCommentJson((await addPostComment(user, params.id, body.body)).comment) } }),
);

export const loader = methodNotAllowed;
