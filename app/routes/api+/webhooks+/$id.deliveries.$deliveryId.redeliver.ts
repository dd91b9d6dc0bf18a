import { z } from "zod";

import { redeliver } from "~/models/webhooks.server";
import { methodNotAllowed, notFound } from "~/utils/http.server";
import { apiRoute, uuidParam } from "~/web/api.server";

/* POST /api/webhooks/:id/deliveries/:deliveryId/redeliver — send an event again now, with the same id (team). */

const params = z.object({ id: uuidParam("No such webhook."), deliveryId: uuidParam("No such delivery.") });

export const action = apiRoute(
  {
    method: "POST",
    auth: "team",
    params,
    status: 202,
    errors: [404, 409],
    response: z.object({ status: z.literal("success") }),
    summary: "Send a delivery again now.",
  },
  async ({ params }) => {
    if (!(await redeliver(params.id, params.deliveryId))) throw notFound("No such delivery.");
    return { status: "success" };
  },
);

export const loader = methodNotAllowed;
