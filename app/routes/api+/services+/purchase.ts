import { z } from "zod";

import { successData } from "~/domain/schemas/api";
import { purchaseBodySchema } from "~/domain/schemas/order";
import { createServicesOrder } from "~/models/orders.server";
import { methodNotAllowed } from "~/utils/http.server";
import { limits } from "~/utils/rate-limit.server";
import { apiRoute } from "~/web/api.server";

export const loader = methodNotAllowed;

const response = successData(z.object({ checkoutUrl: z.string(), sessionId: z.string() }));

/** POST /api/services/purchase: prices on the server, stores a pending order, answers the checkout URL. */
export const action = apiRoute(
  {
    method: "POST",
    auth: "none",
    // Counted before parsing, so malformed floods are limited too: 20 a minute per IP.
    rateLimit: { limiter: limits.order, key: ({ clientIp }) => `ip:${clientIp}` },
    body: purchaseBodySchema,
    errors: [502],
    response,
    summary: "Order services: stores a pending order and answers the Stripe checkout URL.",
  },
  async ({ body }) => {
    const started = await createServicesOrder(
      { name: body.name, email: body.email },
      body.services.map((line) => line.serviceId),
    );
    return { success: true, data: { checkoutUrl: started.checkoutUrl, sessionId: started.sessionId } };
  },
);
