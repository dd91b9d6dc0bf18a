/** Form intents and field names shared by the landing page's forms; no zod, so the page stays light. */

export const ORDER_INTENT = "order";
export const PLAN_INTENT = "plan";
export const CONTACT_INTENT = "contact";

/** The order modal's inline errors: the request never arrived, or no checkout came back. */
export const ORDER_NETWORK_ERROR = "Network error. Please try again.";
