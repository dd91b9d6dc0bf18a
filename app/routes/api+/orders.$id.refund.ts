import { z } from "zod";

import { dollarsToCents } from "~/domain/format";
import { statusData } from "~/domain/schemas/api";
import { orderJson, refundBodySchema } from "~/domain/schemas/ops";
import { getOrderDetail, toOrderJson } from "~/models/orders-list.server";
import { refundOrder } from "~/models/refunds.server";
import { HttpError, methodNotAllowed } from "~/utils/http.server";
import { apiRoute } from "~/web/api.server";

const params = z.object({ id: z.string().max(64) });
const IDEMPOTENCY_KEY = /^[\w-]{8,100}$/;

export const loader = methodNotAllowed;

/**
 * POST /api/orders/:id/refund {amount?} (staff): refunds the amount, or what is left of the order.
 * An `Idempotency-Key` header makes a retry answer the same order without refunding twice.
 */
export const action = apiRoute(
  {
    method: "POST",
    auth: "team",
    params,
    body: refundBodySchema,
    errors: [409, 502],
    response: statusData(orderJson),
    summary: "Refunds an order in full or in part (Stripe's refunds API, or directly in test checkout); the customer is e-mailed.",
  },
  async ({ params, body, user, request }) => {
    const key = request.headers.get("Idempotency-Key")?.trim() || undefined;
    if (key && !IDEMPOTENCY_KEY.test(key)) throw new HttpError(400, "The Idempotency-Key header must be 8 to 100 letters, digits, - or _.", "INVALID_INPUT");
    await refundOrder(params.id, {
      amountCents: body.amount === undefined ? undefined : dollarsToCents(body.amount),
      requestKey: key ? `api:${user.id}:${key}` : undefined,
      staffId: user.id,
      reason: body.reason,
    });
    const detail = await getOrderDetail(params.id);
    return { status: "success", data: toOrderJson(detail!.order) };
  },
);
