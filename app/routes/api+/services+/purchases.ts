import { z } from "zod";

import { purchaseJson, successData } from "~/domain/schemas/api";
import { listAssignedPurchases, listPurchasesByEmail, toPurchaseJson } from "~/models/purchases.server";
import { methodNotAllowed } from "~/utils/http.server";
import { apiRoute } from "~/web/api.server";

/*
 * GET /api/services/purchases (staff): a customer's purchases by their e-mail, or "my work"
 *: `assigneeId=me`, the open purchases assigned to the caller, soonest due first;
 * `due=overdue` or `due=week` narrows them.
 */
const query = z
  .object({
    email: z.string({ error: "Please give the customer's e-mail." }).trim().email("Invalid email address").optional(),
    assigneeId: z.literal("me", { error: "assigneeId must be me." }).optional(),
    due: z.enum(["overdue", "week"], { error: "due must be overdue or week." }).optional(),
  })
  .refine((q) => (q.email === undefined) !== (q.assigneeId === undefined), { error: "Please give the customer's e-mail, or assigneeId=me." })
  .refine((q) => q.due === undefined || q.assigneeId !== undefined, { error: "due goes with assigneeId=me." });

const response = successData(z.object({ purchases: purchaseJson.array() }));

export const loader = apiRoute(
  {
    method: "GET",
    auth: "team",
    query,
    response,
    summary: "A customer's purchases by e-mail, or the caller's assigned work (assigneeId=me, soonest due first).",
  },
  async ({ user, query }) => {
    const purchases = query.assigneeId ? await listAssignedPurchases(user.id, query.due) : await listPurchasesByEmail(query.email!);
    return { success: true, data: { purchases: purchases.map(toPurchaseJson) } };
  },
);

export const action = methodNotAllowed;
