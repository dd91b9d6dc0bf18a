import { listPurchasesForUser, toPurchaseJson } from "~/models/purchases.server";
import { apiRoute } from "~/utils/api.server";
import { jsonError } from "~/utils/http.server";

/** GET /api/services/my-purchases: the signed-in customer's purchases, newest first. */
export const loader = apiRoute({ auth: "user" }, async ({ user }) => {
  const purchases = await listPurchasesForUser(user.id);
  return { success: true, data: purchases.map(toPurchaseJson) };
});

export const action = () => jsonError(405, "Method not allowed.");
