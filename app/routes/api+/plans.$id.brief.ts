import { methodNotAllowed } from "~/utils/http.server";
import { briefQuestionsAction } from "~/web/brief-routes.server";

/** PUT /api/plans/:id/brief {questions}: staff set the questions a plan's subscribers answer (the plan's id or key); orders paid from now on ask these. */
export const action = briefQuestionsAction("plan", "a plan's subscribers");

export const loader = methodNotAllowed;
