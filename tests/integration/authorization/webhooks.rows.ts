import { eq } from "drizzle-orm";

import { createWebhook, emitEvent } from "~/models/webhooks.server";
import { db, schema } from "~/utils/db.server";

import { byRole, everyone } from "./helpers";
import type { AuthorizationRow, Fixtures } from "./types";

/**
 * Webhooks (docs/integrations.md) are staff's alone, on every transport; the inbound e-mail call
 * takes no account at all, only the provider's secret (unset here: 404 for everyone). The webhook's
 * address is in a documentation range, refused by the address guard before any network.
 */

const NO_SUCH_ID = "00000000-0000-4000-8000-000000000000";
const staffApi = (status: number) => byRole({ anonymous: 401, customer: 403, team: status });
const login = { status: 302, location: "/login" };
const staffPage = (team: number | { status: number; location: string }) => byRole({ anonymous: login, customer: 403, team });

export async function fixtures(base: Omit<Fixtures, "ids">) {
  const { webhook } = await createWebhook(base.team, { url: "https://203.0.113.10/hooks", events: ["order.paid"] });
  await db.transaction((tx) => emitEvent(tx, "order.paid", { order: { _id: "authz" } }));
  const [delivery] = await db
    .select({ id: schema.webhookDeliveries.id })
    .from(schema.webhookDeliveries)
    .where(eq(schema.webhookDeliveries.webhookId, webhook.id));
  return { webhook: webhook.id, delivery: delivery!.id };
}

const freshWebhook = async (f: Fixtures) =>
  `/api/webhooks/${(await createWebhook(f.team, { url: "https://203.0.113.11/deleted", events: ["post.due"] })).webhook.id}`;

export const rows: AuthorizationRow[] = [
  { route: "api+/webhooks+/_layout.ts", method: "GET", path: "/api/webhooks", expect: staffApi(200) },
  {
    route: "api+/webhooks+/_layout.ts",
    method: "POST",
    path: "/api/webhooks",
    body: { json: { url: "https://203.0.113.12/new", events: ["post.due", "post.approved"] } },
    expect: staffApi(201),
  },
  { route: "api+/webhooks+/$id.ts", method: "GET", path: `/api/webhooks/${NO_SUCH_ID}`, expect: everyone(405) },
  {
    route: "api+/webhooks+/$id.ts",
    method: "PATCH",
    path: (f) => `/api/webhooks/${f.ids.webhook}`,
    body: { json: { events: ["order.paid", "order.refunded"] } },
    expect: staffApi(200),
  },
  { route: "api+/webhooks+/$id.ts", method: "DELETE", path: freshWebhook, note: "one of its own", expect: staffApi(200) },
  { route: "api+/webhooks+/$id.ts", method: "DELETE", path: `/api/webhooks/${NO_SUCH_ID}`, note: "not there", expect: staffApi(404) },
  { route: "api+/webhooks+/$id.deliveries.ts", method: "GET", path: (f) => `/api/webhooks/${f.ids.webhook}/deliveries`, expect: staffApi(200) },
  {
    route: "api+/webhooks+/$id.deliveries.$deliveryId.redeliver.ts",
    method: "POST",
    path: (f) => `/api/webhooks/${f.ids.webhook}/deliveries/${f.ids.delivery}/redeliver`,
    expect: staffApi(202),
  },
  {
    route: "api+/webhooks+/$id.deliveries.$deliveryId.redeliver.ts",
    method: "GET",
    path: (f) => `/api/webhooks/${f.ids.webhook}/deliveries/${f.ids.delivery}/redeliver`,
    expect: everyone(405),
  },
  {
    route: "api+/inbound.email.ts",
    method: "POST",
    path: "/api/inbound/email",
    headers: { "Content-Type": "message/rfc822" },
    note: "INBOUND_SECRET unset",
    expect: everyone(404),
  },
  { route: "api+/inbound.email.ts", method: "GET", path: "/api/inbound/email", expect: everyone(405) },
  { route: "dashboard+/_staff+/webhooks.tsx", method: "GET", path: "/dashboard/webhooks", expect: staffPage(200) },
  {
    route: "dashboard+/_staff+/webhooks.tsx",
    method: "POST",
    path: "/dashboard/webhooks",
    note: "a new webhook (its secret shown on the answer)",
    body: { form: { intent: "create", url: "https://203.0.113.13/page", events: "post.due" } },
    expect: staffPage(200),
  },
  {
    route: "dashboard+/_staff+/webhooks.tsx",
    method: "POST",
    path: "/dashboard/webhooks",
    note: "turn one off",
    body: (f) => ({ form: { intent: "toggle", webhookId: f.ids.webhook!, active: "false" } }),
    expect: staffPage({ status: 302, location: "/dashboard/webhooks" }),
  },
  {
    route: "dashboard+/_staff+/webhooks.tsx",
    method: "POST",
    path: "/dashboard/webhooks",
    note: "delete an unknown one",
    body: { form: { intent: "delete", webhookId: NO_SUCH_ID } },
    expect: staffPage(404),
  },
  { route: "dashboard+/_staff+/webhooks_.$webhookId.tsx", method: "GET", path: (f) => `/dashboard/webhooks/${f.ids.webhook}`, expect: staffPage(200) },
  { route: "dashboard+/_staff+/webhooks_.$webhookId.tsx", method: "GET", path: `/dashboard/webhooks/${NO_SUCH_ID}`, note: "not there", expect: staffPage(404) },
  {
    route: "dashboard+/_staff+/webhooks_.$webhookId.tsx",
    method: "POST",
    path: (f) => `/dashboard/webhooks/${f.ids.webhook}`,
    note: "send a delivery again (off: told so)",
    body: (f) => ({ form: { deliveryId: f.ids.delivery! } }),
    expect: staffPage({ status: 302, location: "/dashboard/webhooks/" }),
  },
];
