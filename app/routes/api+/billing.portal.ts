import { billingPortalResponse } from "~/domain/schemas/billing-api";
import { billingPortalUrl } from "~/models/billing.server";
import { env } from "~/utils/env.server";
import { methodNotAllowed } from "~/utils/http.server";
import { apiRoute } from "~/web/api.server";

/** POST /api/billing/portal: where the customer manages their plan (Stripe's portal, or the test billing page). */
export const action = apiRoute(
  {
    method: "POST",
    auth: "user",
    allow: "billing:manage",
    errors: [404, 502],
    response: billingPortalResponse,
    summary: "Open billing: a Stripe customer portal session (or the test billing page).",
  },
  async ({ user }) => {
    const url = await billingPortalUrl(user);
    return { status: "success", data: { url: url.startsWith("/") ? `${env.appUrl}${url}` : url } };
  },
);

export const loader = methodNotAllowed;
