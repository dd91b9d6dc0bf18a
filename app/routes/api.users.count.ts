import { getCustomerCounts, getTeamCounts } from "~/models/stats.server";
import { apiRoute } from "~/utils/api.server";
import { methodNotAllowed } from "~/utils/http.server";

/** GET /api/users/count: the overview counts of the asker's role (contracts §3). */
export const loader = apiRoute({ auth: "any" }, async ({ user }) => {
  const serviceCounts = user.role === "team" ? await getTeamCounts() : await getCustomerCounts(user.id);
  return { status: "success", data: { serviceCounts } };
});

export const action = methodNotAllowed;
