import type { ActionFunctionArgs } from "@remix-run/node";
import { handleStripeEvent } from "~/models/payments.server";
import { jsonError, methodNotAllowed } from "~/utils/http.server";
import { logger } from "~/utils/logger.server";
import { constructWebhookEvent, WebhookSignatureError } from "~/utils/stripe.server";

export const loader = methodNotAllowed;

/**
 * POST /api/stripe/webhook. The signature is checked on the raw body; a bad or stale one is a 400.
 * An unexpected failure answers 500 so that Stripe retries; the event id makes the retry harmless.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const rawBody = await request.text();
  let event;
  try {
    event = constructWebhookEvent(rawBody, request.headers.get("Stripe-Signature"));
  } catch (error) {
    if (error instanceof WebhookSignatureError) return jsonError(400, error.message, "BAD_SIGNATURE");
    throw error;
  }
  try {
    const outcome = await handleStripeEvent(event);
    logger.info({ eventId: event.id, type: event.type, outcome }, "stripe event handled");
    return Response.json({ received: true });
  } catch (error) {
    logger.error({ err: error, eventId: event.id, type: event.type, requestId: context?.requestId }, "stripe event failed");
    return jsonError(500, "The event could not be processed; it will be retried.", "INTERNAL_ERROR", { requestId: context?.requestId });
  }
}
