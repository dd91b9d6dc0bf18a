import { successData } from "~/domain/schemas/api";
import { planJson } from "~/domain/schemas/catalogue";
import { getStorefront, toPlanJson } from "~/models/catalogue.server";
import { methodNotAllowed } from "~/utils/http.server";
import { apiRoute } from "~/web/api.server";

/** GET /api/plans: the monthly plans with their current price and features. Public. */
export const loader = apiRoute(
  { method: "GET", auth: "none", response: successData(planJson.array()), summary: "The monthly plans, as the landing page shows them." },
  async () => ({ success: true, data: (await getStorefront()).plans.map(toPlanJson) }),
);

export const action = methodNotAllowed;
