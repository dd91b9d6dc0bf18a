import { ownerKey } from "~/domain/permissions";
import { purchaseJson, successData } from "~/domain/schemas/api";
import { listPurchasesForUser, toPurchaseJson } from "~/models/purchases.server";
import { methodNotAllowed } from "~/utils/http.server";
import { apiRoute } from "~/web/api.server";

/** GET /api/services/my-purchases: the signed-in customer's purchases, newest first. */
const response = successData(purchaseJson.array());

export const loader = apiRoute(
  { method: "GET", auth: "user", allow: "purchases:list-own", response, summary: "The signed-in customer's purchases, newest first." },
  async ({ user }) => {
    const purchases = await listPurchasesForUser(ownerKey(user));
    return { success: true, data: purchases.map(toPurchaseJson) };
  },
);

export const action = methodNotAllowed;
