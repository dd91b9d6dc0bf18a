import { z } from "zod";

import { statusData } from "~/domain/schemas/api";
import { filterDates, orderJson, orderListQuerySchema } from "~/domain/schemas/ops";
import { listOrders, toOrderJson } from "~/models/orders-list.server";
import { methodNotAllowed } from "~/utils/http.server";
import { apiRoute } from "~/web/api.server";

const response = statusData(z.object({ orders: orderJson.array(), total: z.number().int() }));

/** GET /api/orders[?status=&search=&from=&to=&page=&limit=] (staff): every order, newest first, with the total. */
export const loader = apiRoute(
  {
    method: "GET",
    auth: "team",
    scope: "orders:read",
    query: orderListQuerySchema,
    response,
    summary: "Every order (pending, paid, expired, refunded, plan sign-ups), newest first, with the total.",
  },
  async ({ query }) => {
    const { orders, total } = await listOrders({ ...query, ...filterDates(query) });
    return { status: "success", data: { orders: orders.map(toOrderJson), total } };
  },
);

export const action = methodNotAllowed;
