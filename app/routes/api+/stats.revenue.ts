import { z } from "zod";

import { centsToDollars } from "~/domain/format";
import { statusData } from "~/domain/schemas/api";
import { revenueMonthJson, revenueQuerySchema } from "~/domain/schemas/ops";
import { revenueByMonth } from "~/models/revenue.server";
import { methodNotAllowed } from "~/utils/http.server";
import { apiRoute } from "~/web/api.server";

/** GET /api/stats/revenue[?months=12] (staff): revenue and orders per UTC month, oldest first, net of refunds, renewals included. */
export const loader = apiRoute(
  {
    method: "GET",
    auth: "team",
    scope: "orders:read",
    query: revenueQuerySchema,
    response: statusData(z.object({ months: revenueMonthJson.array() })),
    summary: "Revenue and orders per month (UTC), oldest first, net of refunds, renewals included.",
  },
  async ({ query }) => {
    const months = await revenueByMonth(query.months);
    return { status: "success", data: { months: months.map(({ revenueCents, ...month }) => ({ ...month, revenue: centsToDollars(revenueCents) })) } };
  },
);

export const action = methodNotAllowed;
