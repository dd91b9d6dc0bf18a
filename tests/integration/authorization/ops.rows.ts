import { seedCatalogue } from "#db/seed";
import { database, db, schema } from "~/utils/db.server";
import { sendEmail } from "~/utils/email.server";
import { defineJob, jobs } from "~/utils/jobs.server";

import { byRole, createTestUser, everyone } from "./helpers";
import type { AuthorizationRow, Fixtures } from "./types";

/**
 * Running the agency (decisions 090–094): orders, refunds, the revenue series, the team. Staff only; a
 * state change made as staff gets a fresh record per call (a refund spends its order, disabling
 * spends its account), so every call sees the same starting point.
 */

async function paidOrder() {
  await seedCatalogue(db);
  const [service] = await db.select().from(schema.services).orderBy(schema.services.sortOrder).limit(1);
  const [order] = await db
    .insert(schema.orders)
    .values({ email: `authz-${crypto.randomUUID()}@authz.test`, name: "Refund Row", status: "paid", totalCents: service.priceCents, paidAt: new Date() })
    .returning();
  await db.insert(schema.purchases).values({ orderId: order.id, serviceId: service.id, amountCents: service.priceCents, status: "in_progress" });
  return order.id;
}

export async function fixtures(_base: Omit<Fixtures, "ids">) {
  return { opsOrder: await paidOrder() };
}

const login = { status: 302, location: "/login" };
const staffPage = byRole({ anonymous: login, customer: 403, team: 200 });
const staffApi = byRole({ anonymous: 401, customer: 403, team: 200 });
const staffCreate = byRole({ anonymous: 401, customer: 403, team: 201 });
const staffPost = byRole({ anonymous: login, customer: 403, team: { status: 302, location: "/dashboard/" } });
const freshOrder = async () => paidOrder();
defineJob({ kind: "authorization-row", retryLimit: 0, retryDelaySeconds: 1, leaseSeconds: 60, run: async () => {} });
/** A failed job of its own per call (a retry spends it). */
const failedJob = async () => {
  const id = await jobs.enqueue("authorization-row");
  await database.execute(`update pgboss.job set state = 'failed' where id = $1`, [id]);
  return id;
};
const storedEmail = async () => (await sendEmail({ to: "authz-email@authz.test", subject: "Row", heading: "Row", paragraphs: ["Row."] })).id;
const freshUser = async () => (await createTestUser({ role: "user", name: "Disable Me" })).id;

export const rows: AuthorizationRow[] = [
  // Pages
  { route: "dashboard+/_staff+/orders+/_index.tsx", method: "GET", path: "/dashboard/orders?status=paid&search=authz&page=1", expect: staffPage },
  { route: "dashboard+/_staff+/orders+/$orderId.tsx", method: "GET", path: (f) => `/dashboard/orders/${f.ids.opsOrder}`, expect: staffPage },
  {
    route: "dashboard+/_staff+/orders+/$orderId.tsx",
    method: "GET",
    path: "/dashboard/orders/not-an-id",
    note: "malformed id",
    expect: byRole({ anonymous: login, customer: 403, team: 404 }),
  },
  {
    route: "dashboard+/_staff+/orders+/$orderId.tsx",
    method: "POST",
    path: async () => `/dashboard/orders/${await freshOrder()}`,
    note: "refund form, confirmed",
    body: () => ({ form: { amount: "1", reason: "Authorization row", refundKey: crypto.randomUUID(), confirm: "yes" } }),
    expect: staffPost,
  },
  {
    route: "dashboard+/_staff+/orders+/$orderId.tsx",
    method: "POST",
    path: (f) => `/dashboard/orders/${f.ids.opsOrder}`,
    note: "refund form, the confirmation step",
    body: () => ({ form: { amount: "1", reason: "Authorization row", refundKey: crypto.randomUUID() } }),
    expect: staffPage,
  },
  { route: "dashboard+/_staff+/orders+/export[.]csv.ts", method: "GET", path: "/dashboard/orders/export.csv?status=paid", expect: staffPage },
  { route: "dashboard+/_staff+/team.tsx", method: "GET", path: "/dashboard/team", expect: staffPage },
  { route: "dashboard+/_staff+/jobs+/_layout.tsx", method: "GET", path: "/dashboard/jobs", expect: staffPage },
  {
    route: "dashboard+/_staff+/jobs+/$jobId.retry.ts",
    method: "POST",
    path: async () => `/dashboard/jobs/${await failedJob()}/retry`,
    body: () => ({ form: {} }),
    expect: staffPost,
  },
  {
    route: "dashboard+/_staff+/jobs+/$jobId.retry.ts",
    method: "POST",
    path: "/dashboard/jobs/not-a-job/retry",
    note: "no such job",
    body: () => ({ form: {} }),
    expect: byRole({ anonymous: login, customer: 403, team: 404 }),
  },
  {
    route: "dashboard+/_staff+/emails.$emailId.resend.ts",
    method: "POST",
    path: async () => `/dashboard/emails/${await storedEmail()}/resend`,
    body: () => ({ form: { back: "/dashboard/orders" } }),
    expect: staffPost,
  },
  {
    route: "dashboard+/_staff+/team.tsx",
    method: "POST",
    path: "/dashboard/team",
    note: "disable a customer, confirmed",
    body: async () => ({ form: { intent: "disable", userId: await freshUser(), confirm: "yes" } }),
    expect: staffPost,
  },
  {
    route: "dashboard+/_staff+/team.tsx",
    method: "POST",
    path: "/dashboard/team",
    note: "disable: the confirmation step",
    body: async () => ({ form: { intent: "disable", userId: await freshUser() } }),
    expect: staffPage,
  },

  // JSON API
  { route: "api+/orders.ts", method: "GET", path: "/api/orders?status=paid&limit=5", expect: staffApi },
  { route: "api+/orders.ts", method: "POST", path: "/api/orders", expect: everyone(405) },
  {
    route: "api+/orders.$id.refund.ts",
    method: "POST",
    path: async () => `/api/orders/${await freshOrder()}/refund`,
    body: { json: { amount: 1 } },
    expect: staffApi,
  },
  { route: "api+/orders.$id.refund.ts", method: "GET", path: (f) => `/api/orders/${f.ids.opsOrder}/refund`, expect: everyone(405) },
  { route: "api+/stats.revenue.ts", method: "GET", path: "/api/stats/revenue?months=12", expect: staffApi },
  { route: "api+/stats.revenue.ts", method: "POST", path: "/api/stats/revenue", expect: everyone(405) },
  { route: "api+/team.ts", method: "GET", path: "/api/team", expect: staffApi },
  { route: "api+/team.ts", method: "POST", path: "/api/team", expect: everyone(405) },
  {
    route: "api+/team.invite.ts",
    method: "POST",
    path: "/api/team/invite",
    body: () => ({ json: { email: `invitee-${crypto.randomUUID()}@authz.test`, name: "New Colleague" } }),
    expect: staffCreate,
  },
  { route: "api+/team.invite.ts", method: "GET", path: "/api/team/invite", expect: everyone(405) },
  { route: "api+/users+/$id.disable.ts", method: "POST", path: async () => `/api/users/${await freshUser()}/disable`, expect: staffApi },
  { route: "api+/users+/$id.disable.ts", method: "GET", path: (f) => `/api/users/${f.customerA.id}/disable`, expect: everyone(405) },
  { route: "api+/users+/$id.enable.ts", method: "POST", path: async () => `/api/users/${await freshUser()}/enable`, expect: staffApi },
  { route: "api+/users+/$id.enable.ts", method: "GET", path: (f) => `/api/users/${f.customerA.id}/enable`, expect: everyone(405) },
];
