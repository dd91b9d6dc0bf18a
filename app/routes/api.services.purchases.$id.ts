import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { getPurchaseFor, setPurchaseStatus, toPurchaseJson, WORK_STATUSES } from "~/models/purchases.server";
import { apiRoute } from "~/utils/api.server";
import { methodNotAllowed } from "~/utils/http.server";

const params = z.object({ id: z.string() });
const body = z.object({
  status: z.enum(WORK_STATUSES, { error: "Status must be in_progress or completed." }),
});

/** GET /api/services/purchases/:id: the owner or staff. Someone else's id answers 404. */
export const loader = apiRoute({ auth: "any", params }, async ({ user, params }) => {
  const purchase = await getPurchaseFor(user, params.id);
  return { success: true, data: toPurchaseJson(purchase) };
});

const patch = apiRoute({ auth: "team", params, body }, async ({ user, params, body }) => {
  const purchase = await setPurchaseStatus(user, params.id, body.status);
  return { success: true, data: toPurchaseJson(purchase) };
});

/** PATCH /api/services/purchases/:id {status}: staff move work between in progress and completed. */
export async function action(args: ActionFunctionArgs) {
  if (args.request.method !== "PATCH") return methodNotAllowed();
  return patch(args);
}
