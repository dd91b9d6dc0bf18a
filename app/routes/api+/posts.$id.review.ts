import { z } from "zod";

import { statusData } from "~/domain/schemas/api";
import { postJson, reviewSchema } from "~/domain/schemas/calendar";
import { reviewPost } from "~/models/posts.server";
import { methodNotAllowed } from "~/utils/http.server";
import { apiRoute } from "~/web/api.server";

/* POST /api/posts/:id/review {decision: approve|request_changes, comment?} — the customer's review, while the post waits for it (else 409). */

const params = z.object({ id: z.string() });

export const action = apiRoute(
  {
    method: "POST",
    auth: "user",
    params,
    body: reviewSchema,
    response: statusData(z.object({ post: postJson })),
    errors: [404, 409],
    summary: "Approve a post or ask for changes with a comment (the customer, while it is in review).",
  },
  async ({ user, params, body }) => ({ status: "success", data: { post: await reviewPost(user, params.id, body) } }),
);

export const loader = methodNotAllowed;
