import { z } from "zod";
import { purchaseJson, successData } from "~/domain/schemas/api";
import { getPurchaseFor, setPurchaseStatus, toPurchaseJson, WORK_STATUSES } from "~/models/purchases.server";
import { apiRoute } from "~/web/api.server";

const params = z.object({ id: z.string() });
const body = z.object({
  status: z.enum(WORK_STATUSES, { error: "Status must be in_progress or completed." }),
});

const response = successData(purchaseJson);

/** GET /api/services/purchases/:id: the owner or staff. Someone else's id answers 404. */
export const loader = apiRoute({ method: "GET", auth: "any", params, response, summary: "One purchase (the owner's or, for staff, any)." }, async ({ user, params }) => {
  const purchase = await getPurchaseFor(user, params.id);
  return { success: true, data: toPurchaseJson(purchase) };
});

/** PATCH /api/services/purchases/:id {status}: staff move work between in progress and completed. */
export const action = apiRoute({ method: "PATCH", auth: "team", params, body, errors: [409], response, summary: "Move paid work between in progress and completed." }, async ({ user, params, body }) => {
  const purchase = await setPurchaseStatus(user, params.id, body.status);
  return { success: true, data: toPurchaseJson(purchase) };
});
