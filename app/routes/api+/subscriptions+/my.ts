import { ownerKey } from "~/domain/permissions";
import { subscriptionsResponse } from "~/domain/schemas/billing-api";
import { listSubscriptionsForUser, toSubscriptionJsons } from "~/models/subscriptions.server";
import { methodNotAllowed } from "~/utils/http.server";
import { apiRoute } from "~/web/api.server";

/** GET /api/subscriptions/my: the signed-in customer's plans (live and ended), newest first. */
export const loader = apiRoute(
  { method: "GET", auth: "user", allow: "subscriptions:list-own", response: subscriptionsResponse, summary: "The signed-in customer's plans, newest first." },
  async ({ user }) => {
    const rows = await listSubscriptionsForUser(ownerKey(user));
    return { status: "success", data: { subscriptions: await toSubscriptionJsons(rows) } };
  },
);

export const action = methodNotAllowed;
