import { briefQuestionsBody, briefQuestionsResponse } from "~/domain/schemas/brief-api";
import { z } from "~/domain/zod";
import { setBriefQuestions } from "~/models/briefs.server";
import { methodNotAllowed } from "~/utils/http.server";
import { apiRoute } from "~/web/api.server";

/** PUT /api/services/:id/brief {questions}: staff set the questions a service's buyers answer; orders paid from now on ask these. */
export const action = apiRoute(
  {
    method: "PUT",
    auth: "team",
    params: z.object({ id: z.string() }),
    body: briefQuestionsBody,
    errors: [404],
    response: briefQuestionsResponse,
    summary: "Set the brief (up to 30 questions) a service's buyers answer after paying (staff).",
  },
  async ({ user, params, body }) => ({ success: true, data: { questions: await setBriefQuestions(user, "service", params.id, body.questions) } }),
);

export const loader = methodNotAllowed;
