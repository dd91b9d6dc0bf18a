import { z } from "zod";

import { statusData } from "~/domain/schemas/api";
import { postJson, updatePostSchema } from "~/domain/schemas/calendar";
import { updatePost } from "~/models/posts.server";
import { methodNotAllowed } from "~/utils/http.server";
import { apiRoute } from "~/web/api.server";

/*
 * PATCH /api/posts/:id {channel?, scheduledAt?, caption?, status?} — staff edit, reschedule, send
 * for review, withdraw to draft or mark published. Editing an approved post sends it back to review.
 */

const params = z.object({ id: z.string() });

export const action = apiRoute(
  {
    method: "PATCH",
    auth: "team",
    params,
    body: updatePostSchema,
    response: statusData(z.object({ post: postJson })),
    errors: [404, 409],
    summary: "Edit a post, or move it to draft, in_review or published (team); editing an approved post sends it back to review.",
  },
  async ({ user, params, body }) => {
    const { post } = await updatePost(user, params.id, body);
    return { status: "success", data: { post } };
  },
);

export const loader = methodNotAllowed;
