import { z } from "zod";

import { statusData } from "~/domain/schemas/api";
import { deliveryJson } from "~/domain/webhooks";
import { getWebhook, listDeliveries, toDeliveryJson } from "~/models/webhooks.server";
import { notFound } from "~/utils/http.server";
import { apiRoute, uuidParam } from "~/web/api.server";

/* GET /api/webhooks/:id/deliveries — a webhook's delivery log, newest first, with the body sent and the last answer (team). */

const params = z.object({ id: uuidParam("No such webhook.") });

export const loader = apiRoute(
  {
    method: "GET",
    auth: "team",
    params,
    errors: [404],
    response: statusData(z.object({ deliveries: deliveryJson.array() })),
    summary: "A webhook's deliveries, newest first.",
  },
  async ({ params }) => {
    if (!(await getWebhook(params.id))) throw notFound("No such webhook.");
    return { status: "success", data: { deliveries: (await listDeliveries(params.id)).map(toDeliveryJson) } };
  },
);
