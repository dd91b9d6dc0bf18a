import { methodNotAllowed } from "~/utils/http.server";
import { briefQuestionsAction } from "~/web/brief-routes.server";

/** PUT /api/services/:id/brief {questions}: staff set the questions a service's buyers answer; orders paid from now on ask these. */
export const action = briefQuestionsAction("service", "a service's buyers");

export const loader = methodNotAllowed;
