import { briefQuestionsBody, briefQuestionsResponse } from "~/domain/schemas/brief-api";
import { z } from "~/domain/zod";
import { setBriefQuestions } from "~/models/briefs.server";
import { methodNotAllowed } from "~/utils/http.server";
import { apiRoute } from "~/web/api.server";

/** PUT /api/plans/:id/brief {questions}: staff set the questions a plan's subscribers answer (the plan's id or key); orders paid from now on ask these. */
export const action = apiRoute(
  {
    method: "PUT",
    auth: "team",
    params: z.object({ id: z.string() }),
    body: briefQuestionsBody,
    errors: [404],
    response: briefQuestionsResponse,
    summary: "Set the brief (up to 30 questions) a plan's subscribers answer after paying (staff).",
  },
  async ({ user, params, body }) => ({ success: true, data: { questions: await setBriefQuestions(user, "plan", params.id, body.questions) } }),
);

export const loader = methodNotAllowed;
