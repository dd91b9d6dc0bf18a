import { z } from "zod";

import { centsToDollars } from "~/domain/format";
import { can, ownerKey } from "~/domain/permissions";
import { statusData } from "~/domain/schemas/api";
import { getCustomerCounts, getTeamCounts } from "~/models/stats.server";
import { methodNotAllowed } from "~/utils/http.server";
import { apiRoute } from "~/web/api.server";

/** GET /api/users/count: the overview counts of the asker's role (staff: revenue, bookings, active customers; customers: their services). */
const response = statusData(
  z.object({
    serviceCounts: z.union([
      z.object({ totalRevenue: z.number(), servicesBooked: z.number().int(), totalActiveUsers: z.number().int() }).meta({ description: "Staff." }),
      z.object({ totalServicesBooked: z.number().int(), completed: z.number().int(), inProgress: z.number().int() }).meta({ description: "Customers." }),
    ]),
  }),
);

export const loader = apiRoute({ method: "GET", auth: "any", response, summary: "The overview counts of the asker's role." }, async ({ user }) => {
  if (!can(user, "stats:team")) return { status: "success", data: { serviceCounts: await getCustomerCounts(ownerKey(user)) } };
  const { totalRevenueCents, ...counts } = await getTeamCounts();
  return { status: "success", data: { serviceCounts: { ...counts, totalRevenue: centsToDollars(totalRevenueCents) } } };
});

export const action = methodNotAllowed;
