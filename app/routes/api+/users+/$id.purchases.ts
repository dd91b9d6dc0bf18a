import { z } from "zod";

import { purchaseJson, successData } from "~/domain/schemas/api";
import { findCustomer } from "~/models/customers.server";
import { listPurchasesForUser, toPurchaseJson } from "~/models/purchases.server";
import { methodNotAllowed, notFound } from "~/utils/http.server";
import { apiRoute } from "~/web/api.server";

const params = z.object({ id: z.string() });

/** GET /api/users/:id/purchases (staff): one customer's purchases, newest first. */
const response = successData(z.object({ purchases: purchaseJson.array() }));

export const loader = apiRoute({ method: "GET", auth: "team", params, response, summary: "One customer's purchases, newest first." }, async ({ params }) => {
  const customer = await findCustomer(params.id);
  if (!customer) throw notFound("Customer not found.");
  const purchases = await listPurchasesForUser(customer.id);
  return { success: true, data: { purchases: purchases.map(toPurchaseJson) } };
});

export const action = methodNotAllowed;
