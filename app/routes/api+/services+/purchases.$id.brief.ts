import { briefAnswerAction, briefLoader } from "~/web/brief-routes.server";

/** GET /api/services/purchases/:id/brief: the purchase's brief (its owner, staff); someone else's: 404. */
export const loader = briefLoader("purchase", "purchase");

/** PUT /api/services/purchases/:id/brief {answers}: the owner answers; 400 names each required question left empty. */
export const action = briefAnswerAction("purchase", "purchase");
