import { briefAnswerAction, briefLoader } from "~/web/brief-routes.server";

/** GET /api/subscriptions/:id/brief: the plan's brief (its owner, staff); someone else's: 404. */
export const loader = briefLoader("subscription", "subscription");

/** PUT /api/subscriptions/:id/brief {answers}: the owner answers; 400 names each required question left empty. */
export const action = briefAnswerAction("subscription", "subscription");
