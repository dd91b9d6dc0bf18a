import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import qs from "qs";
import Stripe from "stripe";

/*
 * A local HTTP stand-in for the Stripe API, enough for our checkout flow. The real `stripe` SDK
 * talks to it through STRIPE_API_URL, so the SDK's encoding, headers and retries are exercised.
 * Events are signed offline with the SDK's own generateTestHeaderString.
 *
 * Where one worker runs several files against one import of the app (project `unit-fakes`,
 * VITEST_SHARED_STRIPE=1), the app's client points at one address for the whole worker: the files
 * share one server (sharedFakeStripeServer, started by tests/setup/shared-stripe.ts), and each
 * file's fake, with its own state, answers on it from its start to its close.
 */

export interface RecordedRequest {
  method: string;
  path: string;
  params: Record<string, unknown>;
  idempotencyKey: string | undefined;
  authorization: string | undefined;
}

type Session = Record<string, unknown> & { id: string };

export interface FakeStripe {
  url: string;
  requests: RecordedRequest[];
  sessions: Map<string, Session>;
  /** The next N session creations answer this status with a Stripe error body. */
  failNext(status: number, times?: number): void;
  /** The next session creation answers without a `url`. */
  omitUrlNext(): void;
  /** Runs once, when the next expire request arrives and before it is answered (a customer paying at that moment). */
  beforeNextExpire(hook: (sessionId: string) => void): void;
  /** Marks a session paid (or another payment status) as Stripe would after the hosted page. */
  complete(sessionId: string, paymentStatus?: "paid" | "unpaid"): Session;
  /** Subscriptions made by completing subscription-mode sessions, by id. */
  subscriptions: Map<string, Session>;
  /** Billing portal sessions created through the API. */
  portalSessions: Session[];
  /** What the customer portal would do to a subscription (cancel at period end, resume, switch plan): the updated object. */
  updateSubscription(id: string, changes: { cancelAtPeriodEnd?: boolean; status?: string; priceCents?: number; planId?: string; periodEnd?: number }): Session;
  /** An invoice of a subscription, as invoice.paid / invoice.payment_failed carry it. */
  invoice(
    subscriptionId: string,
    options?: {
      billingReason?: "subscription_create" | "subscription_cycle" | "subscription_update";
      paid?: boolean;
      amount?: number;
      periodStart?: number;
      periodEnd?: number;
      id?: string;
    },
  ): Session;
  /** The charge behind an invoice, after a refund of `amountRefunded` cents (charge.refunded). */
  refundedCharge(invoice: Session, amountRefunded: number): Session;
  /** Refunds created through POST /v1/refunds or refundOutside, by id. */
  refunds: Map<string, Session>;
  /** The next N refund creations answer this status with a Stripe error body. */
  failRefundsNext(status: number, times?: number): void;
  /** A refund made in Stripe's own dashboard (not through our API): no metadata of ours. */
  refundOutside(paymentIntent: string, amount?: number): Session;
  /** The charge of a payment intent as charge.refunded carries it: running amount_refunded, no refunds list (API ≥ 2022-11-15). */
  chargeFor(paymentIntent: string): Session;
  /** Open (unpaid) invoices made by invoice(…, { paid: false }), by id: GET /v1/invoices lists them, POST /v1/invoices/:id/pay pays them. */
  openInvoices: Map<string, Session>;
  /** The next N invoice payments are declined (a card error, 402). */
  declinePaymentsNext(times?: number): void;
  /** A signed webhook delivery for an event of this type about this object. */
  event(
    type: string,
    object: Record<string, unknown>,
    options?: { id?: string; timestamp?: number; secret?: string },
  ): { body: string; signature: string; id: string };
  close(): Promise<void>;
}

export const FAKE_WEBHOOK_SECRET = "whsec_test_fake_secret";

/**
 * The settings the app talks to the fake with, put into process.env (before the app is imported: it
 * reads them once). One set for every file, so files sharing a worker (project `unit-fakes`) agree.
 */
export function pointAppAtFakeStripe(url: string): void {
  Object.assign(process.env, {
    STRIPE_SECRET_KEY: "sk_test_fake",
    STRIPE_WEBHOOK_SECRET: FAKE_WEBHOOK_SECRET,
    STRIPE_API_URL: url,
    APP_URL: "http://shop.example.test",
    TEAM_INBOX: "orders-inbox@brandlift.test",
  });
}

const listen = (server: http.Server) => new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));

interface SharedServer {
  url: string;
  /** The fake of the file that runs now; null between files (answered 503). */
  current: http.RequestListener | null;
}
const SHARED_SERVER = Symbol.for("brandlift.fake-stripe-server");

/** The worker's one fake-Stripe address (started on first use); each file's startFakeStripe() answers on it. */
export async function sharedFakeStripeServer(): Promise<SharedServer> {
  const global = globalThis as Record<symbol, unknown>;
  const known = global[SHARED_SERVER] as SharedServer | undefined;
  if (known) return known;
  const shared: SharedServer = { url: "", current: null };
  const server = http.createServer((req, res) => {
    if (shared.current) return shared.current(req, res);
    res.writeHead(503, { "Content-Type": "application/json" });
    res.end(JSON.stringify({ error: { type: "api_error", message: "No test file's fake is running." } }));
  });
  await listen(server);
  shared.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  server.unref();
  global[SHARED_SERVER] = shared;
  return shared;
}

export async function startFakeStripe(): Promise<FakeStripe> {
  const requests: RecordedRequest[] = [];
  const sessions = new Map<string, Session>();
  const subscriptions = new Map<string, Session>();
  const portalSessions: Session[] = [];
  const byIdempotencyKey = new Map<string, Session>();
  let failures: { status: number; times: number } | null = null;
  let omitUrl = false;
  const refunds = new Map<string, Session>();
  const refundsByKey = new Map<string, Session>();
  /** What each payment intent charged, from completed payment sessions and invoices. */
  const charged = new Map<string, number>();
  let refundFailures: { status: number; times: number } | null = null;
  const openInvoices = new Map<string, Session>();
  let declines = 0;
  let beforeExpire: ((sessionId: string) => void) | null = null;
  const refundedOf = (pi: string) =>
    [...refunds.values()].filter((r) => r.payment_intent === pi && r.status === "succeeded").reduce((sum, r) => sum + (r.amount as number), 0);
  const createRefund = (pi: string, amount: number | undefined, metadata: Record<string, unknown>): Session | string => {
    const total = charged.get(pi);
    if (total === undefined) return `No such payment_intent: '${pi}'`;
    const left = total - refundedOf(pi);
    const value = amount ?? left;
    if (value <= 0 || value > left)
      return `Refund amount ($${(value / 100).toFixed(2)}) is greater than unrefunded amount on charge ($${(left / 100).toFixed(2)})`;
    const refund: Session = {
      id: `re_${crypto.randomBytes(12).toString("hex")}`,
      object: "refund",
      amount: value,
      currency: "usd",
      payment_intent: pi,
      charge: `ch_${pi.slice(3)}`,
      status: "succeeded",
      metadata,
      created: Math.floor(Date.now() / 1000),
    };
    refunds.set(refund.id, refund);
    return refund;
  };

  type Item = Record<string, unknown> & { current_period_end: number; price: Record<string, unknown> & { unit_amount: number } };
  const subscriptionItem = (subscription: Session) => (subscription.items as { data: Item[] }).data[0];
  /** Stripe's proration for a new price at `at`, in a 30-day period ending at the item's period end: each line rounded. */
  const prorationOf = (item: Item, newPrice: number, at: number) => {
    const end = item.current_period_end;
    const left = Math.min(1, Math.max(0, (end - at) / (30 * 86400)));
    const credit = Math.round(item.price.unit_amount * left);
    const charge = Math.round(newPrice * left);
    return { credit, charge, due: Math.max(0, charge - credit) };
  };
  const send = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "Content-Type": "application/json", "Request-Id": `req_${crypto.randomBytes(6).toString("hex")}` });
    res.end(JSON.stringify(body));
  };
  const stripeError = (res: http.ServerResponse, status: number, message: string) =>
    send(res, status, { error: { type: status >= 500 ? "api_error" : "invalid_request_error", message } });

  const answer: http.RequestListener = (req, res) => {
    let raw = "";
    req.on("data", (chunk) => (raw += chunk));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://fake");
      // The SDK sends a DELETE's parameters (a cancellation's proration) in the query string.
      const params = { ...qs.parse(url.search.slice(1)), ...qs.parse(raw) } as Record<string, unknown>;
      const idempotencyKey = req.headers["idempotency-key"] as string | undefined;
      requests.push({ method: req.method ?? "GET", path: url.pathname, params, idempotencyKey, authorization: req.headers.authorization });
      if (!req.headers.authorization?.startsWith("Bearer sk_")) return stripeError(res, 401, "Invalid API Key provided.");

      if (req.method === "POST" && url.pathname === "/v1/checkout/sessions") {
        if (idempotencyKey && byIdempotencyKey.has(idempotencyKey)) return send(res, 200, byIdempotencyKey.get(idempotencyKey));
        if (failures && failures.times > 0) {
          failures.times -= 1;
          return stripeError(res, failures.status, "Simulated failure.");
        }
        const id = `cs_test_${crypto.randomBytes(12).toString("hex")}`;
        const lineItems = (params.line_items as Array<{ quantity: string; price_data: { unit_amount: string } }>) ?? [];
        const session: Session = {
          id,
          object: "checkout.session",
          mode: params.mode,
          status: "open",
          payment_status: "unpaid",
          client_reference_id: params.client_reference_id ?? null,
          customer_email: params.customer_email ?? null,
          customer: null,
          payment_intent: null,
          subscription: null,
          metadata: params.metadata ?? {},
          success_url: params.success_url,
          cancel_url: params.cancel_url,
          amount_total: lineItems.reduce((sum, line) => sum + Number(line.price_data.unit_amount) * Number(line.quantity), 0),
          currency: "usd",
          url: omitUrl ? null : `https://checkout.stripe.test/c/pay/${id}`,
          customer_details: null,
        };
        omitUrl = false;
        sessions.set(id, session);
        if (idempotencyKey) byIdempotencyKey.set(idempotencyKey, session);
        return send(res, 200, session);
      }
      if (req.method === "POST" && url.pathname === "/v1/billing_portal/sessions") {
        if (!params.customer) return stripeError(res, 400, "Missing required param: customer.");
        const id = `bps_${crypto.randomBytes(10).toString("hex")}`;
        const portal: Session = {
          id,
          object: "billing_portal.session",
          customer: params.customer,
          return_url: params.return_url ?? null,
          url: `https://billing.stripe.test/p/session/${id}`,
        };
        portalSessions.push(portal);
        return send(res, 200, portal);
      }
      if (req.method === "POST" && url.pathname === "/v1/refunds") {
        if (idempotencyKey && refundsByKey.has(idempotencyKey)) return send(res, 200, refundsByKey.get(idempotencyKey));
        if (refundFailures && refundFailures.times > 0) {
          refundFailures.times -= 1;
          return stripeError(res, refundFailures.status, "Simulated refund failure.");
        }
        const refund = createRefund(
          String(params.payment_intent ?? ""),
          params.amount === undefined ? undefined : Number(params.amount),
          (params.metadata as Record<string, unknown>) ?? {},
        );
        if (typeof refund === "string") return stripeError(res, 400, refund);
        if (idempotencyKey) refundsByKey.set(idempotencyKey, refund);
        return send(res, 200, refund);
      }
      if (req.method === "GET" && url.pathname === "/v1/refunds") {
        const pi = url.searchParams.get("payment_intent");
        const data = [...refunds.values()].filter((r) => !pi || r.payment_intent === pi).reverse();
        return send(res, 200, { object: "list", data, has_more: false, url: "/v1/refunds" });
      }
      if (req.method === "GET" && url.pathname === "/v1/invoices") {
        const subscription = url.searchParams.get("subscription");
        const status = url.searchParams.get("status");
        const data = [...openInvoices.values()]
          .filter(
            (i) =>
              (!subscription || (i.parent as { subscription_details: { subscription: string } }).subscription_details.subscription === subscription) &&
              (!status || i.status === status),
          )
          .reverse();
        return send(res, 200, { object: "list", data, has_more: false, url: "/v1/invoices" });
      }
      const payMatch = /^\/v1\/invoices\/([^/]+)\/pay$/.exec(url.pathname);
      if (req.method === "POST" && payMatch) {
        const invoice = openInvoices.get(payMatch[1]);
        if (!invoice || invoice.status !== "open") return stripeError(res, 400, `Invoice is already paid or does not exist: '${payMatch[1]}'`);
        if (declines > 0) {
          declines -= 1;
          return send(res, 402, { error: { type: "card_error", code: "card_declined", decline_code: "generic_decline", message: "Your card was declined." } });
        }
        Object.assign(invoice, { status: "paid", amount_paid: invoice.amount_due, status_transitions: { paid_at: Math.floor(Date.now() / 1000) } });
        charged.set(invoice.payment_intent as string, invoice.amount_due as number);
        return send(res, 200, invoice);
      }
      const subscriptionMatch = /^\/v1\/subscriptions\/([^/]+)$/.exec(url.pathname);
      if (req.method === "GET" && subscriptionMatch) {
        const subscription = subscriptions.get(subscriptionMatch[1]);
        return subscription ? send(res, 200, subscription) : stripeError(res, 404, `No such subscription: '${subscriptionMatch[1]}'`);
      }
      // Cancel now (DELETE) or update: cancel_at_period_end, or a new price for the item, prorated and invoiced at once.
      if ((req.method === "POST" || req.method === "DELETE") && subscriptionMatch) {
        const subscription = subscriptions.get(subscriptionMatch[1]);
        if (!subscription) return stripeError(res, 404, `No such subscription: '${subscriptionMatch[1]}'`);
        if (req.method === "DELETE") {
          Object.assign(subscription, { status: "canceled", cancel_at_period_end: false });
          return send(res, 200, subscription);
        }
        if (params.cancel_at_period_end !== undefined) subscription.cancel_at_period_end = params.cancel_at_period_end === "true";
        if (params.metadata) subscription.metadata = { ...(subscription.metadata as Record<string, unknown>), ...(params.metadata as Record<string, unknown>) };
        const newPrice = (params.items as Array<{ price_data?: { unit_amount: string } }> | undefined)?.[0]?.price_data?.unit_amount;
        let latest: Session | null = null;
        if (newPrice !== undefined) {
          const item = subscriptionItem(subscription);
          const proration = prorationOf(item, Number(newPrice), Number(params.proration_date ?? Math.floor(Date.now() / 1000)));
          // A price made from price_data: the same product, no lookup key, no metadata.
          item.price = {
            id: `price_${crypto.randomBytes(6).toString("hex")}`,
            product: item.price.product,
            currency: "usd",
            unit_amount: Number(newPrice),
            lookup_key: null,
            metadata: {},
          };
          latest = { id: `in_${crypto.randomBytes(10).toString("hex")}`, object: "invoice", amount_paid: proration.due, amount_due: proration.due };
        }
        const expand = [params.expand ?? []].flat() as string[];
        return send(res, 200, { ...subscription, latest_invoice: expand.includes("latest_invoice") ? latest : (latest?.id ?? null) });
      }
      if (req.method === "POST" && url.pathname === "/v1/invoices/create_preview") {
        const subscription = subscriptions.get(String(params.subscription ?? ""));
        if (!subscription) return stripeError(res, 404, `No such subscription: '${String(params.subscription)}'`);
        const details = params.subscription_details as { items?: Array<{ price_data?: { unit_amount: string } }>; proration_date?: string } | undefined;
        const newPrice = Number(details?.items?.[0]?.price_data?.unit_amount ?? 0);
        const proration = prorationOf(subscriptionItem(subscription), newPrice, Number(details?.proration_date ?? Math.floor(Date.now() / 1000)));
        return send(res, 200, {
          id: `upcoming_${crypto.randomBytes(6).toString("hex")}`,
          object: "invoice",
          amount_due: proration.due,
          currency: "usd",
          lines: {
            object: "list",
            data: [
              { id: "il_credit", amount: -proration.credit, description: "Unused time" },
              { id: "il_charge", amount: proration.charge, description: "Remaining time" },
            ],
          },
        });
      }
      const expiring = /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/.exec(url.pathname);
      if (req.method === "POST" && expiring) {
        const session = sessions.get(expiring[1]);
        if (!session) return stripeError(res, 404, `No such checkout.session: '${expiring[1]}'`);
        beforeExpire?.(session.id);
        beforeExpire = null;
        // As Stripe: only an open session can be expired.
        if (session.status !== "open") return stripeError(res, 400, `Only Checkout Sessions with a status in ["open"] can be expired.`);
        session.status = "expired";
        return send(res, 200, session);
      }
      const match = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(url.pathname);
      if (req.method === "GET" && match) {
        const session = sessions.get(match[1]);
        return session ? send(res, 200, session) : stripeError(res, 404, `No such checkout.session: '${match[1]}'`);
      }
      return stripeError(res, 404, `Unrecognized request URL (${req.method}: ${url.pathname}).`);
    });
  };
  let url: string;
  let close: () => Promise<void>;
  if (process.env.VITEST_SHARED_STRIPE === "1") {
    const shared = await sharedFakeStripeServer();
    shared.current = answer;
    url = shared.url;
    close = async () => {
      if (shared.current === answer) shared.current = null;
    };
  } else {
    const server = http.createServer(answer);
    await listen(server);
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  }

  return {
    url,
    requests,
    sessions,
    failNext(status, times = 1) {
      failures = { status, times };
    },
    omitUrlNext() {
      omitUrl = true;
    },
    beforeNextExpire(hook) {
      beforeExpire = hook;
    },
    complete(sessionId, paymentStatus = "paid") {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`fake stripe: no session ${sessionId}`);
      const subscription = session.mode === "subscription" ? `sub_${crypto.randomBytes(8).toString("hex")}` : null;
      Object.assign(session, {
        status: "complete",
        payment_status: paymentStatus,
        customer: `cus_${crypto.randomBytes(8).toString("hex")}`,
        payment_intent: session.mode === "payment" ? `pi_${crypto.randomBytes(8).toString("hex")}` : null,
        subscription,
        customer_details: { email: session.customer_email, name: null },
      });
      if (session.payment_intent) charged.set(session.payment_intent as string, session.amount_total as number);
      if (subscription) {
        const metadata = (session.metadata ?? {}) as Record<string, string>;
        subscriptions.set(subscription, {
          id: subscription,
          object: "subscription",
          status: "active",
          customer: session.customer,
          cancel_at_period_end: false,
          metadata,
          items: {
            data: [
              {
                id: `si_${crypto.randomBytes(6).toString("hex")}`,
                current_period_end: Math.floor(Date.now() / 1000) + 30 * 86400,
                price: {
                  unit_amount: session.amount_total,
                  currency: "usd",
                  product: `prod_${crypto.randomBytes(6).toString("hex")}`,
                  lookup_key: null,
                  metadata: { planId: metadata.planId ?? "" },
                },
              },
            ],
          },
        });
      }
      return session;
    },
    subscriptions,
    portalSessions,
    updateSubscription(id, changes) {
      const subscription = subscriptions.get(id);
      if (!subscription) throw new Error(`fake stripe: no subscription ${id}`);
      const item = (subscription.items as { data: Array<Record<string, unknown> & { price: Record<string, unknown> }> }).data[0];
      if (changes.cancelAtPeriodEnd !== undefined) subscription.cancel_at_period_end = changes.cancelAtPeriodEnd;
      if (changes.status) subscription.status = changes.status;
      if (changes.periodEnd) item.current_period_end = changes.periodEnd;
      if (changes.priceCents !== undefined)
        item.price = { ...item.price, unit_amount: changes.priceCents, lookup_key: changes.planId ?? null, metadata: { planId: changes.planId ?? "" } };
      return structuredClone(subscription);
    },
    invoice(subscriptionId, options = {}) {
      const subscription = subscriptions.get(subscriptionId);
      if (!subscription) throw new Error(`fake stripe: no subscription ${subscriptionId}`);
      const item = (subscription.items as { data: Array<{ current_period_end: number; price: { unit_amount: number } }> }).data[0];
      const start = options.periodStart ?? item.current_period_end;
      const end = options.periodEnd ?? start + 30 * 86400;
      const id = options.id ?? `in_${crypto.randomBytes(10).toString("hex")}`;
      const paid = options.paid ?? true;
      const paymentIntent = `pi_${crypto.randomBytes(8).toString("hex")}`;
      if (paid) charged.set(paymentIntent, options.amount ?? item.price.unit_amount);
      const invoice: Session = {
        id,
        object: "invoice",
        billing_reason: options.billingReason ?? "subscription_cycle",
        status: paid ? "paid" : "open",
        amount_paid: paid ? (options.amount ?? item.price.unit_amount) : 0,
        amount_due: options.amount ?? item.price.unit_amount,
        currency: "usd",
        customer: subscription.customer,
        hosted_invoice_url: `https://invoice.stripe.test/i/${id}`,
        payment_intent: paymentIntent,
        charge: `ch_${crypto.randomBytes(8).toString("hex")}`,
        status_transitions: { paid_at: paid ? Math.floor(Date.now() / 1000) : null },
        lines: { data: [{ period: { start, end } }] },
        parent: { type: "subscription_details", subscription_details: { subscription: subscriptionId, metadata: subscription.metadata } },
      };
      if (!paid) openInvoices.set(id, invoice);
      return structuredClone(invoice);
    },
    openInvoices,
    declinePaymentsNext(times = 1) {
      declines = times;
    },
    refundedCharge(invoice, amountRefunded) {
      return {
        id: invoice.charge as string,
        object: "charge",
        amount: invoice.amount_paid,
        amount_refunded: amountRefunded,
        refunded: amountRefunded >= (invoice.amount_paid as number),
        payment_intent: invoice.payment_intent,
      };
    },
    refunds,
    failRefundsNext(status, times = 1) {
      refundFailures = { status, times };
    },
    refundOutside(paymentIntent, amount) {
      const refund = createRefund(paymentIntent, amount, {});
      if (typeof refund === "string") throw new Error(`fake stripe: ${refund}`);
      return refund;
    },
    chargeFor(paymentIntent) {
      const amount = charged.get(paymentIntent);
      if (amount === undefined) throw new Error(`fake stripe: no payment ${paymentIntent}`);
      const refunded = refundedOf(paymentIntent);
      return {
        id: `ch_${paymentIntent.slice(3)}`,
        object: "charge",
        amount,
        amount_refunded: refunded,
        refunded: refunded >= amount,
        payment_intent: paymentIntent,
        currency: "usd",
      };
    },
    event(type, object, options = {}) {
      const id = options.id ?? `evt_${crypto.randomBytes(12).toString("hex")}`;
      const body = JSON.stringify({
        id,
        object: "event",
        type,
        api_version: Stripe.API_VERSION,
        created: Math.floor(Date.now() / 1000),
        data: { object },
        livemode: false,
        pending_webhooks: 1,
      });
      const signature = Stripe.webhooks.generateTestHeaderString({
        payload: body,
        secret: options.secret ?? FAKE_WEBHOOK_SECRET,
        timestamp: options.timestamp,
      });
      return { body, signature, id };
    },
    close,
  };
}
