import { z } from "zod";

import { can } from "~/domain/permissions";
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
  const serviceCounts = can(user, "stats:team") ? await getTeamCounts() : await getCustomerCounts(user.id);
  return { status: "success", data: { serviceCounts } };
});

export const action = methodNotAllowed;
