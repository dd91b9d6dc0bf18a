import type { LoaderFunctionArgs } from "@remix-run/node";

import { filterDates, orderFilterSchema } from "~/domain/schemas/ops";
import { ordersCsvStream } from "~/models/orders-export.server";
import { jsonError } from "~/utils/http.server";
import { requireTeam } from "~/web/auth.server";

/**
 * GET /dashboard/orders/export.csv[?status=&search=&from=&to=] (staff): the orders list's matches as
 * CSV, streamed from the database a batch at a time (docs/decisions/093).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireTeam(request);
  const parsed = orderFilterSchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) return jsonError(400, parsed.error.issues[0]?.message ?? "Invalid filter.", "INVALID_INPUT");
  const filter = { ...parsed.data, ...filterDates(parsed.data) };
  return new Response(ordersCsvStream(filter), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="orders-${new Date().toISOString().slice(0, 10)}.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
}
