import { briefAnswersBody, briefResponse } from "~/domain/schemas/brief-api";
import { z } from "~/domain/zod";
import { getBrief, submitBrief } from "~/models/briefs.server";
import { apiRoute } from "~/web/api.server";

const params = z.object({ id: z.string() });

/** GET /api/services/purchases/:id/brief: the purchase's brief (its owner, staff); someone else's: 404. */
export const loader = apiRoute(
  { method: "GET", auth: "any", params, errors: [404], response: briefResponse, summary: "A purchase's brief: its questions and answers (the owner, staff)." },
  async ({ user, params }) => ({ status: "success", data: { brief: (await getBrief(user, { kind: "purchase", id: params.id })).json } }),
);

/** PUT /api/services/purchases/:id/brief {answers}: the owner answers; 400 names each required question left empty. */
export const action = apiRoute(
  {
    method: "PUT",
    auth: "user",
    params,
    body: briefAnswersBody,
    errors: [404, 409],
    response: briefResponse,
    summary: "Answer a purchase's brief (the owner). 400 names each required question left empty; 409 when it has no brief.",
  },
  async ({ user, params, body }) => ({
    status: "success",
    data: { brief: (await submitBrief(user, { kind: "purchase", id: params.id }, body.answers)).json },
  }),
);
