import { seedCatalogue } from "#db/seed";
import { db, schema } from "~/utils/db.server";

import { everyone, uniqueEmail } from "./helpers";
import type { AuthorizationRow, Fixtures } from "./types";

/**
 * The storefront and payments (decisions 030–034): every route is public. Signed in or not, over a cookie
 * or a bearer token, everyone gets the same answer; nothing here reveals an account's data.
 */

const SESSION = `cs_test_authz_${crypto.randomUUID().replace(/-/g, "")}`;

export async function fixtures(_base: Omit<Fixtures, "ids">) {
  await seedCatalogue(db);
  const [service] = await db.select().from(schema.services).orderBy(schema.services.sortOrder).limit(1);
  const [order] = await db
    .insert(schema.orders)
    .values({ email: "authz-buyer@authz.test", name: "Authz Buyer", totalCents: service.priceCents, stripeSessionId: SESSION })
    .returning();
  await db.insert(schema.purchases).values({ orderId: order.id, serviceId: service.id, amountCents: service.priceCents });
  return { storefrontServiceId: service.id };
}

const checkoutLocation = /\/checkout\/test\/cs_test_/;

export const rows: AuthorizationRow[] = [
  { route: "_index.tsx", method: "GET", path: "/", expect: everyone(200) },
  {
    route: "_index.tsx",
    method: "POST",
    path: "/?index",
    note: "a-la-carte order",
    body: (f) => ({ form: { intent: "order", name: "Authz Buyer", email: uniqueEmail("order"), services: f.ids.storefrontServiceId } }),
    expect: everyone({ status: 302, location: checkoutLocation }),
  },
  {
    route: "_index.tsx",
    method: "POST",
    path: "/?index",
    note: "contact without an e-mail",
    body: { form: { intent: "contact", message: "Hello" } },
    expect: everyone(400),
  },
  { route: "api+/services+/_layout.ts", method: "GET", path: "/api/services", expect: everyone(200) },

  { route: "api+/services+/purchase.ts", method: "GET", path: "/api/services/purchase", expect: everyone(405) },
  {
    route: "api+/services+/purchase.ts",
    method: "POST",
    path: "/api/services/purchase",
    body: (f) => ({
      json: {
        name: "Authz Buyer",
        email: uniqueEmail("api-order"),
        services: [{ serviceId: f.ids.storefrontServiceId, pricingType: "one_time", quantity: 1 }],
      },
    }),
    expect: everyone(200),
  },
  { route: "api+/stripe.webhook.ts", method: "GET", path: "/api/stripe/webhook", expect: everyone(405) },
  {
    route: "api+/stripe.webhook.ts",
    method: "POST",
    path: "/api/stripe/webhook",
    note: "unsigned",
    body: { json: { id: "evt_forged", type: "checkout.session.completed" } },
    expect: everyone(400),
  },
  { route: "checkout.[test].$sessionId.tsx", method: "GET", path: `/checkout/test/${SESSION}`, expect: everyone(200) },
  {
    route: "checkout.[test].$sessionId.tsx",
    method: "POST",
    path: `/checkout/test/${SESSION}`,
    note: "a declined card",
    body: { form: { intent: "pay", cardNumber: "4000000000000002", expiry: "12/39", cvc: "123", cardholder: "X" } },
    expect: everyone(400),
  },
  { route: "checkout.[test].$sessionId.tsx", method: "GET", path: "/checkout/test/cs_test_unknown", note: "unknown session", expect: everyone(404) },
  { route: "purchase.success.tsx", method: "GET", path: `/purchase/success?session_id=${SESSION}`, expect: everyone(200) },
  { route: "$.tsx", method: "GET", path: "/no-such-page", expect: everyone(404) },
  { route: "$.tsx", method: "POST", path: "/no-such-page", expect: everyone(404) },
  { route: "purchase.cancel.tsx", method: "GET", path: "/purchase/cancel", expect: everyone(200) },
  { route: "terms.tsx", method: "GET", path: "/terms", expect: everyone(200) },
  { route: "privacy.tsx", method: "GET", path: "/privacy", expect: everyone(200) },
];
