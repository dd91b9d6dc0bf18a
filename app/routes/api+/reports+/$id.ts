import { z } from "zod";

import { deleteReport } from "~/models/report-versions.server";
import { methodNotAllowed } from "~/utils/http.server";
import { apiRoute } from "~/web/api.server";

/** DELETE /api/reports/:id (staff): gone for the customer at once; kept 30 days for staff, then purged with its files. */
export const action = apiRoute(
  {
    method: "DELETE",
    auth: "team",
    params: z.object({ id: z.string() }),
    errors: [404],
    response: z.object({ success: z.literal(true) }),
    summary: "Delete a report: the customer loses it at once; staff keep it 30 days, then it is purged with every version's file.",
  },
  async ({ user, params }) => {
    await deleteReport(user, params.id);
    return { success: true };
  },
);

export const loader = methodNotAllowed;
