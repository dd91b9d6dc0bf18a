import { z } from "zod";

/*
 * Webhooks (docs/integrations.md): the events staff can subscribe an address to, the delivery
 * schedule (docs/decisions/286) and the shapes of the webhooks API.
 */

export const WEBHOOK_EVENTS = [
  "order.paid",
  "order.refunded",
  "subscription.created",
  "subscription.renewed",
  "subscription.cancelled",
  "brief.submitted",
  "post.review_requested",
  "post.approved",
  "post.changes_requested",
  "post.due",
  "message.created",
  "report.published",
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export const DELIVERY_STATUSES = ["pending", "delivered", "failed"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** Seconds to wait before each try after the first: about 1 minute, 5, 30, 2 hours, 8 and 24 (7 tries). */
export const RETRY_DELAYS_SECONDS = [60, 5 * 60, 30 * 60, 2 * 3600, 8 * 3600, 24 * 3600] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_SECONDS.length + 1;
/** Events in a row that ended failed before a webhook is turned off. */
export const FAILURES_BEFORE_TURN_OFF = 7;
export const DELIVERY_TIMEOUT_MS = 10_000;
/** How much of a receiver's answer the delivery log keeps. */
export const RESPONSE_EXCERPT_BYTES = 1024;

/** A webhook as the screens take it (decision 309): its id as `id`; the API sends it as WebhookJson. */
export interface Webhook {
  id: string;
  url: string;
  events: WebhookEvent[];
  active: boolean;
  /** Events in a row whose delivery ended failed (back to 0 on a delivered one). */
  consecutiveFailures: number;
  disabledReason: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A delivery as the screens take it: its id as `id`; the API sends it as DeliveryJson. */
export interface WebhookDelivery {
  id: string;
  eventId: string;
  event: WebhookEvent;
  attempts: number;
  status: DeliveryStatus;
  lastStatusCode: number | null;
  nextAttemptAt: string | null;
  createdAt: string;
  /** The JSON body sent (the same on every try). */
  requestBody: string;
  /** The last answer: its status and first bytes, or why there was none. */
  response: { status: number | null; body: string | null; error: string | null } | null;
}

const webhookUrl = z
  .string({ error: "Enter the address to send events to" })
  .trim()
  .max(2000, "The address is too long (2,000 characters at most)")
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === "https:" || url.protocol === "http:") && !url.username && !url.password;
    } catch {
      return false;
    }
  }, "Enter an http:// or https:// address without a user name or password")
  .meta({ description: "Where events are POSTed (http or https; private addresses are refused when sending).", format: "uri" });

const events = z
  .array(z.enum(WEBHOOK_EVENTS, { error: `Events are ${WEBHOOK_EVENTS.join(", ")}` }), { error: "Choose at least one event" })
  .min(1, "Choose at least one event")
  .transform((list) => [...new Set(list)]);

export const WebhookCreateSchema = z.object({ url: webhookUrl, events });

export const WebhookUpdateSchema = z
  .object({ url: webhookUrl.optional(), events: events.optional(), active: z.boolean({ error: "active is true or false" }).optional() })
  .refine((v) => v.url !== undefined || v.events !== undefined || v.active !== undefined, "Change the address, the events or whether it is on");

const isoDate = z.string().meta({ format: "date-time" });

export const webhookJson = z.object({
  _id: z.string(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  active: z.boolean(),
  consecutiveFailures: z.number().int(),
  disabledReason: z.string().nullable(),
  createdAt: isoDate,
  updatedAt: isoDate,
});

export const deliveryJson = z.object({
  _id: z.string(),
  eventId: z.string(),
  event: z.enum(WEBHOOK_EVENTS),
  attempts: z.number().int(),
  status: z.enum(DELIVERY_STATUSES),
  lastStatusCode: z.number().int().nullable(),
  nextAttemptAt: isoDate.nullable(),
  createdAt: isoDate,
  requestBody: z.string(),
  response: z.object({ status: z.number().int().nullable(), body: z.string().nullable(), error: z.string().nullable() }).nullable(),
});

/** A webhook and a delivery as the API sends them: their schemas' types. */
export type WebhookJson = z.infer<typeof webhookJson>;
export type DeliveryJson = z.infer<typeof deliveryJson>;
