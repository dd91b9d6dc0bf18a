import { z } from "zod";
import { listPurchasesByEmail, toPurchaseJson } from "~/models/purchases.server";
import { apiRoute } from "~/utils/api.server";
import { methodNotAllowed } from "~/utils/http.server";

const query = z.object({ email: z.string({ error: "Please give the customer's e-mail." }).trim().email("Invalid email address") });

/** GET /api/services/purchases?email=E (staff): a customer's purchases by their e-mail. */
export const loader = apiRoute({ auth: "team", query }, async ({ query }) => {
  const purchases = await listPurchasesByEmail(query.email);
  return { success: true, data: { purchases: purchases.map(toPurchaseJson) } };
});

export const action = methodNotAllowed;
