import { db, schema } from "~/utils/db.server";

import { byRole, everyone } from "./helpers";
import type { Actor, AuthorizationRow, Expected, Fixtures } from "./types";

/**
 * Briefs (decision 200): staff set the questions of a service or a plan; the owner of a paid
 * purchase or plan answers its brief, staff read it; another customer gets 404 as for a missing id.
 */

const QUESTIONS = [{ key: "brand", label: "Brand name", kind: "text", required: true }];

export async function fixtures(base: Omit<Fixtures, "ids">) {
  const [service] = await db
    .insert(schema.services)
    .values({ slug: `authz-brief-${crypto.randomUUID()}`, name: `Authz brief ${crypto.randomUUID().slice(0, 8)}`, priceCents: 1000 })
    .returning();
  const [order] = await db
    .insert(schema.orders)
    .values({
      email: `brief-${crypto.randomUUID()}@authz.test`,
      name: "Brief Buyer",
      userId: base.customerA.id,
      status: "paid",
      totalCents: 1000,
      paidAt: new Date(),
    })
    .returning();
  const [purchase] = await db
    .insert(schema.purchases)
    .values({ orderId: order.id, serviceId: service.id, userId: base.customerA.id, amountCents: 1000, status: "in_progress" })
    .returning();
  const [planOrder] = await db
    .insert(schema.orders)
    .values({
      kind: "subscription",
      email: `brief-plan-${crypto.randomUUID()}@authz.test`,
      name: "Brief Plan",
      userId: base.customerA.id,
      status: "paid",
      totalCents: 4900,
      planId: "starter",
      paidAt: new Date(),
    })
    .returning();
  const [subscription] = await db
    .insert(schema.subscriptions)
    .values({ orderId: planOrder.id, userId: base.customerA.id, planId: "starter", status: "active", priceCents: 4900 })
    .returning();
  await db.insert(schema.briefs).values([
    { purchaseId: purchase.id, userId: base.customerA.id, questions: QUESTIONS as never, paidAt: new Date() },
    { subscriptionId: subscription.id, userId: base.customerA.id, questions: QUESTIONS as never, paidAt: new Date() },
  ]);
  return { briefService: service.id, briefPurchaseA: purchase.id, briefPlanA: subscription.id };
}

const ownerRead: Record<Actor, Expected> = { anonymous: 401, customerA: 200, customerB: 404, team: 200 };
/** Only the owner answers: staff are refused (they read), another customer sees nothing there. */
const ownerWrite: Record<Actor, Expected> = { anonymous: 401, customerA: 200, customerB: 404, team: 403 };
const staffApi = byRole({ anonymous: 401, customer: 403, team: 200 });
const answers = { json: { answers: { brand: "Authz Co" } } };

export const rows: AuthorizationRow[] = [
  {
    route: "api+/services+/$id.brief.ts",
    method: "PUT",
    path: (f) => `/api/services/${f.ids.briefService}/brief`,
    body: { json: { questions: QUESTIONS } },
    expect: staffApi,
  },
  {
    route: "api+/services+/$id.brief.ts",
    method: "PUT",
    path: `/api/services/${crypto.randomUUID()}/brief`,
    note: "unknown service",
    body: { json: { questions: QUESTIONS } },
    expect: byRole({ anonymous: 401, customer: 403, team: 404 }),
  },
  { route: "api+/services+/$id.brief.ts", method: "GET", path: (f) => `/api/services/${f.ids.briefService}/brief`, expect: everyone(405) },
  { route: "api+/plans.$id.brief.ts", method: "PUT", path: "/api/plans/starter/brief", body: { json: { questions: [] } }, expect: staffApi },
  { route: "api+/plans.$id.brief.ts", method: "GET", path: "/api/plans/starter/brief", expect: everyone(405) },
  {
    route: "api+/services+/purchases.$id.brief.ts",
    method: "GET",
    path: (f) => `/api/services/purchases/${f.ids.briefPurchaseA}/brief`,
    needs: "work",
    refused: 404,
    expect: ownerRead,
  },
  {
    route: "api+/services+/purchases.$id.brief.ts",
    method: "PUT",
    path: (f) => `/api/services/purchases/${f.ids.briefPurchaseA}/brief`,
    body: answers,
    needs: "answer",
    refused: 404,
    expect: ownerWrite,
  },
  {
    route: "api+/services+/purchases.$id.brief.ts",
    method: "GET",
    path: `/api/services/purchases/${crypto.randomUUID()}/brief`,
    note: "unknown purchase",
    expect: { anonymous: 401, customerA: 404, customerB: 404, team: 404 },
  },
  {
    route: "api+/subscriptions+/$id.brief.ts",
    method: "GET",
    path: (f) => `/api/subscriptions/${f.ids.briefPlanA}/brief`,
    needs: "work",
    refused: 404,
    expect: ownerRead,
  },
  {
    route: "api+/subscriptions+/$id.brief.ts",
    method: "PUT",
    path: (f) => `/api/subscriptions/${f.ids.briefPlanA}/brief`,
    body: answers,
    needs: "answer",
    refused: 404,
    expect: ownerWrite,
  },
];

// The pages (decision 201): the editor's form beside a service, and the brief page of a purchase and of a plan.
const loginPage = { status: 302, location: "/login" };
const pageRead: Record<Actor, Expected> = { anonymous: loginPage, customerA: 200, customerB: 404, team: 200 };
const pageForm = { form: { "answers.brand": "Authz Co" } };
rows.push(
  {
    route: "dashboard+/_staff+/catalogue_.services.$serviceId.tsx",
    method: "POST",
    path: (f) => `/dashboard/catalogue/services/${f.ids.briefService}`,
    note: "brief questions",
    body: { form: { formId: "brief", intent: "save-brief-questions", "questions[0].label": "Brand name", "questions[0].kind": "text" } },
    expect: byRole({ anonymous: loginPage, customer: 403, team: { status: 302, location: "/dashboard/catalogue/services/" } }),
  },
  {
    route: "dashboard+/services_.$purchaseId.brief.tsx",
    method: "GET",
    path: (f) => `/dashboard/services/${f.ids.briefPurchaseA}/brief`,
    needs: "work",
    refused: 404,
    expect: pageRead,
  },
  {
    route: "dashboard+/services_.$purchaseId.brief.tsx",
    method: "POST",
    path: (f) => `/dashboard/services/${f.ids.briefPurchaseA}/brief`,
    body: pageForm,
    needs: "answer",
    refused: 404,
    expect: { anonymous: loginPage, customerA: { status: 302, location: "/dashboard/services/" }, customerB: 404, team: 403 },
  },
  {
    route: "dashboard+/plans_.$subscriptionId.brief.tsx",
    method: "GET",
    path: (f) => `/dashboard/plans/${f.ids.briefPlanA}/brief`,
    needs: "work",
    refused: 404,
    expect: pageRead,
  },
  {
    route: "dashboard+/plans_.$subscriptionId.brief.tsx",
    method: "POST",
    path: (f) => `/dashboard/plans/${f.ids.briefPlanA}/brief`,
    body: pageForm,
    needs: "answer",
    refused: 404,
    expect: { anonymous: loginPage, customerA: { status: 302, location: "/dashboard/plans/" }, customerB: 404, team: 403 },
  },
);
