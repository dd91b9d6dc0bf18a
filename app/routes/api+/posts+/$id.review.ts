import { z } from "zod";

import { statusData } from "~/domain/schemas/api";
import { postJson, reviewSchema } from "~/domain/schemas/calendar";
import { reviewPost, toPostJson } from "~/models/posts.server";
import { methodNotAllowed } from "~/utils/http.server";
import { apiRoute } from "~/web/api.server";

/*
 * POST /api/posts/:id/review {decision: approve|request_changes, comment?} — the client's review
 * (owners and approvers), or a second team member's check first under `two_step` (decision 292),
 * while the post waits for it (else 409). A member whose role does not cover approving: 403.
 */

const params = z.object({ id: z.string() });

export const action = apiRoute(
  {
    method: "POST",
    auth: "any",
    params,
    body: reviewSchema,
    response: statusData(z.object({ post: postJson })),
    errors: [403, 404, 409],
    summary: "Approve a post or ask for changes with a comment (owners and approvers; a second team member first under two_step), while it is in review.",
  },
  async ({ user, params, body }) => ({ status: "success", data: { post: toPostJson(await reviewPost(user, params.id, body)) } }),
);

export const loader = methodNotAllowed;
