import { successData } from "~/domain/schemas/api";
import { planJson } from "~/domain/schemas/catalogue";
import { getStorefront, toPlanJson, type Storefront } from "~/models/catalogue.server";
import { methodNotAllowed } from "~/utils/http.server";
import { apiRoute } from "~/web/api.server";
import { lastingPer } from "~/web/json-answer.server";

/** GET /api/plans: the monthly plans with their current price and features. Public. */
export const loader = apiRoute(
  { method: "GET", auth: "none", response: successData(planJson.array()), summary: "The monthly plans, as the landing page shows them." },
  async () => plansAnswer(await getStorefront()),
);

/** One answer per catalogue snapshot, frozen: its JSON text is made once (json-answer.server.ts). */
const plansAnswer = lastingPer((storefront: Storefront) => ({ success: true as const, data: storefront.plans.map(toPlanJson) }));

export const action = methodNotAllowed;
