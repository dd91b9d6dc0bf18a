import { briefAnswersBody, briefQuestionsBody, briefQuestionsResponse, briefResponse } from "~/domain/schemas/brief-api";
import { z } from "~/domain/zod";
import { getBrief, setBriefQuestions, submitBrief, type BriefOf, type BriefSubject } from "~/models/briefs.server";
import { apiRoute } from "~/web/api.server";

/*
 * The brief's API routes, one declaration for each pair of twins: a service's and a plan's
 * questions (staff set them), a purchase's and a subscription's brief (the owner reads and answers).
 */

const params = z.object({ id: z.string() });

/** PUT /api/services/:id/brief and /api/plans/:id/brief {questions}: staff set the questions buyers answer. */
export function briefQuestionsAction(subject: BriefSubject, buyers: string) {
  return apiRoute(
    {
      method: "PUT",
      auth: "team",
      params,
      body: briefQuestionsBody,
      errors: [404],
      response: briefQuestionsResponse,
      summary: `Set the brief (up to 30 questions) ${buyers} answer after paying (staff).`,
    },
    async ({ user, params, body }) => ({ success: true, data: { questions: await setBriefQuestions(user, subject, params.id, body.questions) } }),
  );
}

/** GET …/:id/brief: the brief of a purchase or subscription (its owner, staff); someone else's: 404. */
export function briefLoader(kind: BriefOf["kind"], noun: string) {
  return apiRoute(
    { method: "GET", auth: "any", params, errors: [404], response: briefResponse, summary: `A ${noun}'s brief: its questions and answers (the owner, staff).` },
    async ({ user, params }) => ({ status: "success", data: { brief: (await getBrief(user, { kind, id: params.id })).json } }),
  );
}

/** PUT …/:id/brief {answers}: the owner answers; 400 names each required question left empty. */
export function briefAnswerAction(kind: BriefOf["kind"], noun: string) {
  return apiRoute(
    {
      method: "PUT",
      auth: "user",
      params,
      body: briefAnswersBody,
      errors: [404, 409],
      response: briefResponse,
      summary: `Answer a ${noun}'s brief (the owner). 400 names each required question left empty; 409 when it has no brief.`,
    },
    async ({ user, params, body }) => ({ status: "success", data: { brief: (await submitBrief(user, { kind, id: params.id }, body.answers)).json } }),
  );
}
