import { ownerKey } from "~/domain/permissions";
import { receiptsResponse } from "~/domain/schemas/billing-api";
import { listReceiptsForUser, toReceiptJson } from "~/models/receipts.server";
import { methodNotAllowed } from "~/utils/http.server";
import { apiRoute } from "~/web/api.server";

/** GET /api/receipts/my: every paid order and plan renewal of the signed-in customer, newest first. */
export const loader = apiRoute(
  {
    method: "GET",
    auth: "user",
    allow: "billing:manage",
    response: receiptsResponse,
    summary: "The signed-in customer's paid orders and renewals, each with a receipt URL.",
  },
  async ({ user }) => ({ status: "success", data: { receipts: (await listReceiptsForUser(ownerKey(user))).map(toReceiptJson) } }),
);

export const action = methodNotAllowed;
