import { z } from "zod";
import { findCustomer } from "~/models/customers.server";
import { listPurchasesForUser, toPurchaseJson } from "~/models/purchases.server";
import { apiRoute } from "~/utils/api.server";
import { methodNotAllowed, notFound } from "~/utils/http.server";

const params = z.object({ id: z.string() });

/** GET /api/users/:id/purchases (staff): one customer's purchases, newest first. */
export const loader = apiRoute({ auth: "team", params }, async ({ params }) => {
  const customer = await findCustomer(params.id);
  if (!customer) throw notFound("Customer not found.");
  const purchases = await listPurchasesForUser(customer.id);
  return { success: true, data: { purchases: purchases.map(toPurchaseJson) } };
});

export const action = methodNotAllowed;
