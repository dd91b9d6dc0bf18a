import { z } from "zod";

import { handleStripeEvent } from "~/models/payments.server";
import { jsonError, methodNotAllowed } from "~/utils/http.server";
import { logger } from "~/utils/logger.server";
import { constructWebhookEvent, WebhookSignatureError } from "~/utils/stripe.server";
import { apiRoute } from "~/web/api.server";
import { readText } from "~/web/body-limit.server";

export const loader = methodNotAllowed;

/** What every event has; an event without it is refused (400) rather than failing (500, retried for days). */
const eventShape = z
  .object({ id: z.string().min(1), type: z.string().min(1), data: z.object({ object: z.object({}).loose() }).loose() })
  .loose()
  .meta({ description: "A Stripe event, signed in the Stripe-Signature header." });

/**
 * POST /api/stripe/webhook. The signature is checked on the raw body; a bad or stale one is a 400.
 * An unexpected failure answers 500 so that Stripe retries; the event id makes the retry harmless.
 */
export const action = apiRoute(
  {
    method: "POST",
    auth: "none",
    rawBody: { contentType: "application/json", schema: eventShape },
    response: z.object({ received: z.literal(true) }),
    summary: "Stripe events (checkout completed or expired, payments, refunds, subscriptions).",
  },
  async ({ request, requestId }) => {
    const rawBody = await readText(request);
    let event;
    try {
      event = constructWebhookEvent(rawBody, request.headers.get("Stripe-Signature"));
    } catch (error) {
      if (error instanceof WebhookSignatureError) return jsonError(400, error.message, "BAD_SIGNATURE");
      throw error;
    }
    if (!eventShape.safeParse(event).success) {
      logger.warn({ eventId: (event as { id?: unknown }).id, requestId }, "malformed stripe event refused");
      return jsonError(400, "The event is not a Stripe event (id, type and data.object are required).", "MALFORMED_EVENT");
    }
    try {
      const outcome = await handleStripeEvent(event);
      logger.info({ eventId: event.id, type: event.type, outcome }, "stripe event handled");
      return { received: true };
    } catch (error) {
      logger.error({ err: error, eventId: event.id, type: event.type, requestId }, "stripe event failed");
      return jsonError(500, "The event could not be processed; it will be retried.", "INTERNAL_ERROR", { requestId });
    }
  },
);
