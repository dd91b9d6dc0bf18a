import { z } from "zod";

import { statusData } from "~/domain/schemas/api";
import { revisionJson } from "~/domain/schemas/approvals";
import { listRevisions } from "~/models/post-approvals.server";
import { methodNotAllowed } from "~/utils/http.server";
import { apiRoute } from "~/web/api.server";

/* GET /api/posts/:id/revisions (staff; the client's members, never for a draft): its caption and media after each edit once first sent for review (decision 294), oldest first. */

export const loader = apiRoute(
  {
    method: "GET",
    auth: "any",
    params: z.object({ id: z.string() }),
    response: statusData(z.object({ revisions: z.array(revisionJson) })),
    summary: "A post's revisions since it was first sent for review, oldest first (staff; the client's members, not drafts).",
  },
  async ({ user, params }) => ({ status: "success", data: { revisions: await listRevisions(user, params.id) } }),
);

export const action = methodNotAllowed;
