import { db, schema } from "~/utils/db.server";

import { byRole, everyone, messageForm } from "./helpers";
import type { AuthorizationRow, Fixtures } from "./types";

/**
 * Plans, billing, receipts and the account page (decisions 085–089). Customer A has a plan (two, so the
 * test billing page's change does not touch the one the reports rows use) and a paid order;
 * customer B asking for them gets 404, like an id that does not exist.
 */

const PDF = Buffer.from("%PDF-1.4\n%authz\n%%EOF\n");
const pdfForm = () => () => {
  const form = new FormData();
  form.append("report", new Blob([new Uint8Array(PDF)], { type: "application/pdf" }), "plan.pdf");
  form.append("title", "Monthly plan report");
  return form;
};

export async function fixtures(base: Omit<Fixtures, "ids">) {
  const plan = async (planId: string) => {
    const [order] = await db
      .insert(schema.orders)
      .values({
        kind: "subscription",
        email: base.customerA.email,
        name: "A",
        userId: base.customerA.id,
        status: "paid",
        totalCents: 15900,
        planId,
        paidAt: new Date(),
      })
      .returning();
    const [subscription] = await db
      .insert(schema.subscriptions)
      .values({
        orderId: order.id,
        userId: base.customerA.id,
        planId,
        status: "active",
        priceCents: 15900,
        stripeSubscriptionId: `sub_test_${order.id}`,
        currentPeriodEnd: new Date(Date.now() + 20 * 86400_000),
      })
      .returning();
    return { order, subscription };
  };
  const first = await plan("pro");
  const second = await plan("starter");
  return { billSubA: first.subscription.id, billOrderA: first.order.id, billSubA2: second.subscription.id };
}

const login = { status: 302, location: "/login" };
const staffPage = byRole({ anonymous: login, customer: 403, team: 200 });
const pageOfA = { anonymous: login, customerA: 200, customerB: 404, team: 200 } as const;
const customerApi = byRole({ anonymous: 401, customer: 200, team: 403 });
const signedIn = byRole({ anonymous: 401, customer: 200, team: 200 });
const subA = (f: Fixtures) => f.ids.billSubA;

export const rows: AuthorizationRow[] = [
  // JSON API
  { route: "api+/subscriptions+/my.ts", method: "GET", path: "/api/subscriptions/my", needs: "any", expect: customerApi },
  { route: "api+/subscriptions+/my.ts", method: "POST", path: "/api/subscriptions/my", expect: everyone(405) },
  { route: "api+/receipts.my.ts", method: "GET", path: "/api/receipts/my", needs: "billing", expect: customerApi },
  { route: "api+/receipts.my.ts", method: "POST", path: "/api/receipts/my", expect: everyone(405) },
  { route: "api+/account+/_layout.ts", method: "GET", path: "/api/account", needs: "any", expect: signedIn },
  { route: "api+/account+/_layout.ts", method: "PATCH", path: "/api/account", body: { json: { name: "Renamed Person" } }, needs: "any", expect: signedIn },
  { route: "api+/account+/_layout.ts", method: "POST", path: "/api/account", expect: everyone(405) },
  {
    route: "api+/account+/password.ts",
    method: "POST",
    path: "/api/account/password",
    note: "wrong current password",
    body: { json: { currentPassword: "not-the-password", newPassword: "a-new-password-1" } },
    expect: byRole({ anonymous: 401, customer: 400, team: 400 }),
  },
  { route: "api+/account+/password.ts", method: "GET", path: "/api/account/password", expect: everyone(405) },
  { route: "api+/billing.portal.ts", method: "POST", path: "/api/billing/portal", needs: "billing", expect: customerApi },
  { route: "api+/billing.portal.ts", method: "GET", path: "/api/billing/portal", expect: everyone(405) },
  {
    route: "api+/subscriptions+/$id.reports.ts",
    method: "POST",
    path: (f) => `/api/subscriptions/${subA(f)}/reports`,
    body: { multipart: pdfForm() },
    expect: byRole({ anonymous: 401, customer: 403, team: 201 }),
  },
  { route: "api+/subscriptions+/$id.reports.ts", method: "GET", path: (f) => `/api/subscriptions/${subA(f)}/reports`, expect: everyone(405) },

  // Pages
  {
    route: "dashboard+/_customer+/billing.ts",
    method: "GET",
    path: "/dashboard/billing",
    needs: "billing",
    refused: { status: 302, location: "/dashboard" },
    expect: byRole({ anonymous: login, customer: { status: 302, location: "/billing/test" }, team: { status: 302, location: "/dashboard" } }),
  },
  {
    route: "dashboard+/_customer+/billing.ts",
    method: "POST",
    path: "/dashboard/billing",
    needs: "billing",
    refused: { status: 302, location: "/dashboard" },
    expect: byRole({ anonymous: login, customer: { status: 302, location: "/billing/test" }, team: { status: 302, location: "/dashboard" } }),
  },
  {
    route: "billing.[test]._index.tsx",
    method: "GET",
    path: "/billing/test",
    needs: "billing",
    refused: 404,
    expect: byRole({ anonymous: login, customer: 200, team: 404 }),
  },
  {
    route: "billing.[test]._index.tsx",
    method: "POST",
    path: "/billing/test",
    note: "A's second plan: a failed renewal",
    needs: "billing",
    refused: 404,
    body: (f) => ({ form: { intent: "fail", subscriptionId: f.ids.billSubA2 } }),
    expect: { anonymous: login, customerA: { status: 302, location: "/billing/test" }, customerB: 404, team: 404 },
  },
  {
    route: "dashboard+/_customer+/plans.$subscriptionId.tsx",
    method: "GET",
    path: (f) => `/dashboard/plans/${subA(f)}`,
    note: "A's plan; staff are sent to A's page",
    needs: "any",
    expect: { ...pageOfA, team: { status: 302, location: "/dashboard/users/" } },
  },
  { route: "dashboard+/_customer+/plans.$subscriptionId._index.tsx", method: "GET", path: (f) => `/dashboard/plans/${subA(f)}`, needs: "any", expect: pageOfA },
  {
    route: "dashboard+/_customer+/plans.$subscriptionId.message.tsx",
    method: "GET",
    path: (f) => `/dashboard/plans/${subA(f)}/message`,
    needs: "chat",
    refused: 404,
    expect: pageOfA,
  },
  {
    route: "dashboard+/_customer+/plans.$subscriptionId.message.tsx",
    method: "POST",
    path: (f) => `/dashboard/plans/${subA(f)}/message`,
    note: "the tab's message form (multipart)",
    needs: "chat",
    refused: 404,
    body: messageForm,
    expect: {
      anonymous: login,
      customerA: { status: 302, location: "/dashboard/plans/" },
      customerB: 404,
      team: { status: 302, location: "/dashboard/plans/" },
    },
  },
  {
    route: "dashboard+/_staff+/users+/$userId.plans.$subscriptionId.tsx",
    method: "GET",
    path: (f) => `/dashboard/users/${f.customerA.id}/plans/${subA(f)}`,
    expect: staffPage,
  },
  {
    route: "dashboard+/_staff+/users+/$userId.plans.$subscriptionId.tsx",
    method: "POST",
    path: (f) => `/dashboard/users/${f.customerA.id}/plans/${subA(f)}?upload=1`,
    note: "upload without JavaScript",
    body: { multipart: pdfForm() },
    expect: byRole({ anonymous: login, customer: 403, team: { status: 302, location: "/dashboard/users/" } }),
  },
  { route: "dashboard+/account.tsx", method: "GET", path: "/dashboard/account", needs: "any", expect: byRole({ anonymous: login, customer: 200, team: 200 }) },
  {
    route: "dashboard+/account.tsx",
    method: "POST",
    path: "/dashboard/account",
    body: { form: { intent: "name", name: "Renamed Person" } },
    needs: "any",
    expect: byRole({ anonymous: login, customer: { status: 302, location: "/dashboard/account" }, team: { status: 302, location: "/dashboard/account" } }),
  },
  {
    route: "dashboard+/_customer+/receipts.tsx",
    method: "GET",
    path: "/dashboard/receipts",
    needs: "billing",
    expect: byRole({ anonymous: login, customer: 200, team: { status: 302, location: "/dashboard/users" } }),
  },
  { route: "receipts.$kind.$id.tsx", method: "GET", path: (f) => `/receipts/order/${f.ids.billOrderA}`, needs: "billing", refused: 404, expect: pageOfA },
  {
    route: "receipts.$kind.$id.tsx",
    method: "GET",
    path: (f) => `/receipts/invoice/${f.ids.billOrderA}`,
    note: "an order id is no invoice",
    expect: byRole({ anonymous: login, customer: 404, team: 404 }),
  },
  { route: "account.confirm-email.tsx", method: "GET", path: "/account/confirm-email?token=not-a-token", expect: everyone(400) },
  { route: "account.undo-email.tsx", method: "GET", path: "/account/undo-email?token=not-a-token", expect: everyone(400) },
  { route: "account.undo-email.tsx", method: "POST", path: "/account/undo-email", body: { form: { token: "not-a-token" } }, expect: everyone(400) },
];
