import { db, schema } from "~/utils/db.server";

import { byRole } from "./helpers";
import type { AuthorizationRow, Fixtures } from "./types";

/**
 * Subscriptions for staff (decision 175): the list and a plan's page, staff only. A change to a plan
 * gets a fresh plan per call, so every call starts from an active one; the confirmation step
 * (no `confirm`) changes nothing and answers 200.
 */

async function activePlan(userId: string) {
  const [order] = await db
    .insert(schema.orders)
    .values({
      kind: "subscription",
      email: `authz-${crypto.randomUUID()}@authz.test`,
      name: "Plan Row",
      userId,
      status: "paid",
      totalCents: 4900,
      planId: "starter",
      paidAt: new Date(),
    })
    .returning();
  const [subscription] = await db
    .insert(schema.subscriptions)
    .values({
      orderId: order.id,
      userId,
      planId: "starter",
      status: "active",
      priceCents: 4900,
      stripeSubscriptionId: `sub_test_${order.id}`,
      currentPeriodEnd: new Date(Date.now() + 20 * 86400_000),
    })
    .returning();
  return subscription.id;
}

export async function fixtures(base: Omit<Fixtures, "ids">) {
  return { staffPlanA: await activePlan(base.customerA.id) };
}

const login = { status: 302, location: "/login" };
const staffPage = byRole({ anonymous: login, customer: 403, team: 200 });

export const rows: AuthorizationRow[] = [
  {
    route: "dashboard+/_staff+/subscriptions+/_index.tsx",
    method: "GET",
    path: "/dashboard/subscriptions?status=active&search=authz&page=1",
    expect: staffPage,
  },
  {
    route: "dashboard+/_staff+/subscriptions+/$subscriptionId.tsx",
    method: "GET",
    path: (f) => `/dashboard/subscriptions/${f.ids.staffPlanA}`,
    expect: staffPage,
  },
  {
    route: "dashboard+/_staff+/subscriptions+/$subscriptionId.tsx",
    method: "GET",
    path: "/dashboard/subscriptions/not-an-id",
    note: "malformed id",
    expect: byRole({ anonymous: login, customer: 403, team: 404 }),
  },
  {
    route: "dashboard+/_staff+/subscriptions+/$subscriptionId.tsx",
    method: "POST",
    path: (f) => `/dashboard/subscriptions/${f.ids.staffPlanA}`,
    note: "the confirmation step",
    body: { form: { intent: "cancel_now" } },
    expect: staffPage,
  },
  {
    route: "dashboard+/_staff+/subscriptions+/$subscriptionId.tsx",
    method: "POST",
    path: async (f) => `/dashboard/subscriptions/${await activePlan(f.customerA.id)}`,
    note: "confirmed: cancel at period end",
    body: { form: { intent: "cancel_at_period_end", confirm: "yes" } },
    expect: byRole({ anonymous: login, customer: 403, team: { status: 302, location: "/dashboard/subscriptions/" } }),
  },
];
