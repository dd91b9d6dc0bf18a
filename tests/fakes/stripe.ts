import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import qs from "qs";
import Stripe from "stripe";

/*
 * A local HTTP stand-in for the Stripe API, enough for our checkout flow. The real `stripe` SDK
 * talks to it through STRIPE_API_URL, so the SDK's encoding, headers and retries are exercised.
 * Events are signed offline with the SDK's own generateTestHeaderString.
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
  /** Marks a session paid (or another payment status) as Stripe would after the hosted page. */
  complete(sessionId: string, paymentStatus?: "paid" | "unpaid"): Session;
  /** A signed webhook delivery for an event of this type about this object. */
  event(type: string, object: Record<string, unknown>, options?: { id?: string; timestamp?: number; secret?: string }): { body: string; signature: string; id: string };
  close(): Promise<void>;
}

export const FAKE_WEBHOOK_SECRET = "whsec_test_fake_secret";

export async function startFakeStripe(): Promise<FakeStripe> {
  const requests: RecordedRequest[] = [];
  const sessions = new Map<string, Session>();
  const byIdempotencyKey = new Map<string, Session>();
  let failures: { status: number; times: number } | null = null;
  let omitUrl = false;

  const send = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "Content-Type": "application/json", "Request-Id": `req_${crypto.randomBytes(6).toString("hex")}` });
    res.end(JSON.stringify(body));
  };
  const stripeError = (res: http.ServerResponse, status: number, message: string) =>
    send(res, status, { error: { type: status >= 500 ? "api_error" : "invalid_request_error", message } });

  const server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk) => (raw += chunk));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://fake");
      const params = qs.parse(raw) as Record<string, unknown>;
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
      const match = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(url.pathname);
      if (req.method === "GET" && match) {
        const session = sessions.get(match[1]);
        return session ? send(res, 200, session) : stripeError(res, 404, `No such checkout.session: '${match[1]}'`);
      }
      return stripeError(res, 404, `Unrecognized request URL (${req.method}: ${url.pathname}).`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    sessions,
    failNext(status, times = 1) {
      failures = { status, times };
    },
    omitUrlNext() {
      omitUrl = true;
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
      return session;
    },
    event(type, object, options = {}) {
      const id = options.id ?? `evt_${crypto.randomBytes(12).toString("hex")}`;
      const body = JSON.stringify({ id, object: "event", type, api_version: Stripe.API_VERSION, created: Math.floor(Date.now() / 1000), data: { object }, livemode: false, pending_webhooks: 1 });
      const signature = Stripe.webhooks.generateTestHeaderString({
        payload: body,
        secret: options.secret ?? FAKE_WEBHOOK_SECRET,
        timestamp: options.timestamp,
      });
      return { body, signature, id };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
