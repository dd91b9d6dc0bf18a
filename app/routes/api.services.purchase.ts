import type { ActionFunctionArgs } from "@remix-run/node";
import { purchaseBodySchema } from "~/components/order/order-schema";
import { createServicesOrder } from "~/models/orders.server";
import { apiRoute } from "~/utils/api.server";
import { HttpError, httpErrorResponse, methodNotAllowed } from "~/utils/http.server";
import { clientIp, consume, limits } from "~/utils/rate-limit.server";

export const loader = methodNotAllowed;

const purchase = apiRoute({ auth: "none", body: purchaseBodySchema }, async ({ body }) => {
  const started = await createServicesOrder(
    { name: body.name, email: body.email },
    body.services.map((line) => line.serviceId),
  );
  return { success: true, data: { checkoutUrl: started.checkoutUrl, sessionId: started.sessionId } };
});

/** POST /api/services/purchase: prices on the server, stores a pending order, answers the checkout URL. */
export async function action(args: ActionFunctionArgs) {
  if (args.request.method !== "POST") return methodNotAllowed();
  try {
    // Counted before parsing, so malformed floods are limited too (contracts §6: 20 a minute per IP).
    await consume(limits.order, `ip:${clientIp(args.request, args.context)}`);
  } catch (error) {
    if (error instanceof HttpError) return httpErrorResponse(error);
    throw error;
  }
  return purchase(args);
}
