import { z } from "zod";
import { purchaseJson, successData } from "~/domain/schemas/api";
import { listPurchasesByEmail, toPurchaseJson } from "~/models/purchases.server";
import { apiRoute } from "~/web/api.server";
import { methodNotAllowed } from "~/utils/http.server";

const query = z.object({ email: z.string({ error: "Please give the customer's e-mail." }).trim().email("Invalid email address") });

/** GET /api/services/purchases?email=E (staff): a customer's purchases by their e-mail. */
const response = successData(z.object({ purchases: purchaseJson.array() }));

export const loader = apiRoute({ method: "GET", auth: "team", query, response, summary: "A customer's purchases, found by their e-mail." }, async ({ query }) => {
  const purchases = await listPurchasesByEmail(query.email);
  return { success: true, data: { purchases: purchases.map(toPurchaseJson) } };
});

export const action = methodNotAllowed;
