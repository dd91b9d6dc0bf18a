import crypto from "node:crypto";
import Stripe from "stripe";

import { env } from "./env.server";

/*
 * The payment gateway. With STRIPE_SECRET_KEY it is real Stripe Checkout through
 * the `stripe` SDK (STRIPE_API_URL points the SDK at another server, e.g. the test fake). Without
 * a key it is the built-in test checkout: same interface, the URL is our own /checkout/test/:id page.
 */

export interface CheckoutLine {
  name: string;
  description?: string | null;
  amountCents: number;
  currency: string;
  quantity: number;
}

export interface CheckoutRequest {
  /** Our order id: client_reference_id, metadata and idempotency key. */
  orderId: string;
  mode: "payment" | "subscription";
  email: string;
  lines: CheckoutLine[];
  /** Plan id of a subscription order, kept on the Stripe subscription too. */
  planId?: string;
}

export interface CreatedCheckout {
  id: string;
  url: string | null;
}

export interface PaymentGateway {
  testMode: boolean;
  createCheckoutSession(request: CheckoutRequest): Promise<CreatedCheckout>;
}

/** Fields of a Checkout Session that fulfilment reads; the test checkout builds the same shape. */
export type CheckoutSession = Pick<
  Stripe.Checkout.Session,
  "id" | "client_reference_id" | "payment_status" | "status" | "mode" | "customer" | "payment_intent" | "subscription"
> & { customer_details?: { email?: string | null; name?: string | null } | null };

/** The id of a Stripe field that is an id or, when expanded, the object itself. */
export const idOf = (value: string | { id: string } | null | undefined) => (typeof value === "string" ? value : (value?.id ?? null));

export const successUrl = () => `${env.appUrl}/purchase/success?session_id={CHECKOUT_SESSION_ID}`;
/** Back to the cancel page with the order, whose selection it offers to restore. */
export const cancelUrl = (orderId: string) => `${env.appUrl}/purchase/cancel?order=${orderId}`;

function clientFor(secretKey: string, apiUrl: string | undefined) {
  const target = apiUrl ? new URL(apiUrl) : undefined;
  return new Stripe(secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    appInfo: { name: "BrandLift" },
    ...(target
      ? {
          host: target.hostname,
          port: target.port || (target.protocol === "https:" ? 443 : 80),
          protocol: target.protocol === "http:" ? "http" : "https",
        }
      : {}),
  });
}

/** The SDK client, or null in test-checkout mode. */
export const stripe: Stripe | null = env.stripe ? clientFor(env.stripe.secretKey, env.stripe.apiUrl) : null;

/** The Checkout Session parameters, shared by every mode so the tests can assert them in one place. */
export function checkoutSessionParams(request: CheckoutRequest): Stripe.Checkout.SessionCreateParams {
  const metadata = { orderId: request.orderId, ...(request.planId ? { planId: request.planId } : {}) };
  const line_items = request.lines.map((line) => ({
    quantity: line.quantity,
    price_data: {
      currency: line.currency,
      unit_amount: line.amountCents,
      product_data: { name: line.name, ...(line.description ? { description: line.description.slice(0, 500) } : {}) },
      ...(request.mode === "subscription" ? { recurring: { interval: "month" as const } } : {}),
    },
  }));
  const common = {
    customer_email: request.email,
    client_reference_id: request.orderId,
    success_url: successUrl(),
    cancel_url: cancelUrl(request.orderId),
    line_items,
    metadata,
  };
  // Subscriptions always create a customer and an invoice; Stripe rejects both options there.
  return request.mode === "subscription"
    ? { ...common, mode: "subscription", subscription_data: { metadata } }
    : {
        ...common,
        mode: "payment",
        invoice_creation: { enabled: true, invoice_data: { metadata } },
        customer_creation: "always",
        payment_intent_data: { metadata },
      };
}

class StripeGateway implements PaymentGateway {
  testMode = false;
  constructor(private client: Stripe) {}

  async createCheckoutSession(request: CheckoutRequest): Promise<CreatedCheckout> {
    const session = await this.client.checkout.sessions.create(checkoutSessionParams(request), {
      idempotencyKey: `checkout-${request.orderId}`,
    });
    return { id: session.id, url: session.url };
  }
}

/** No key: sessions are ours, and "paying" happens on /checkout/test/:sessionId. */
class TestCheckoutGateway implements PaymentGateway {
  testMode = true;
  async createCheckoutSession(): Promise<CreatedCheckout> {
    const id = `cs_test_${crypto.randomBytes(18).toString("base64url")}`;
    return { id, url: `${env.appUrl}/checkout/test/${id}` };
  }
}

export const paymentGateway: PaymentGateway = stripe ? new StripeGateway(stripe) : new TestCheckoutGateway();

export const isTestCheckout = () => paymentGateway.testMode;

export class WebhookSignatureError extends Error {}

/** Verifies the Stripe-Signature header on the raw body (5-minute tolerance) and parses the event. */
export function constructWebhookEvent(rawBody: string, signature: string | null): Stripe.Event {
  const secret = env.stripeWebhookSecret;
  if (!secret) throw new WebhookSignatureError("Stripe webhooks are not configured on this server.");
  if (!signature) throw new WebhookSignatureError("Missing Stripe-Signature header.");
  try {
    return Stripe.webhooks.constructEvent(rawBody, signature, secret, 300);
  } catch {
    throw new WebhookSignatureError("Invalid Stripe signature.");
  }
}

export type { Stripe };
