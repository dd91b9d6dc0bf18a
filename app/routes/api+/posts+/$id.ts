import { z } from "zod";

import { statusData } from "~/domain/schemas/api";
import { postJson, updatePostSchema } from "~/domain/schemas/calendar";
import { setReviewBy } from "~/models/post-approvals.server";
import { announcePostChange, getPostFor, toPostJson, updatePost } from "~/models/posts.server";
import { methodNotAllowed } from "~/utils/http.server";
import { apiRoute } from "~/web/api.server";

/*
 * PATCH /api/posts/:id {channel?, scheduledAt?, caption?, status?} — staff edit, reschedule, send
 * for review, withdraw to draft or mark published. Editing an approved post sends it back to review.
 * `reviewBy` sets a post's review deadline by hand (decision 292; 409 unless it was sent for review).
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
    const { reviewBy, ...change } = body;
    const { post } = await updatePost(user, params.id, change);
    if (!reviewBy) return { status: "success", data: { post: toPostJson(post) } };
    await setReviewBy(params.id, new Date(reviewBy));
    await announcePostChange(params.id);
    return { status: "success", data: { post: toPostJson(await getPostFor(user, params.id)) } };
  },
);

export const loader = methodNotAllowed;
