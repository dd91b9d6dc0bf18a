import { listPurchasesForUser, toPurchaseJson } from "~/models/purchases.server";
import { apiRoute } from "~/utils/api.server";
import { methodNotAllowed } from "~/utils/http.server";

/** GET /api/services/my-purchases: the signed-in customer's purchases, newest first. */
export const loader = apiRoute({ auth: "user" }, async ({ user }) => {
  const purchases = await listPurchasesForUser(user.id);
  return { success: true, data: purchases.map(toPurchaseJson) };
});

export const action = methodNotAllowed;
