import { createService, ensureCatalogue, listPlans } from "~/models/catalogue.server";

import { unique } from "../../support/factories";
import { byRole, everyone } from "./helpers";
import type { AuthorizationRow, Fixtures } from "./types";

/**
 * The catalogue (decisions 075 and 190): plans are public; adding and changing services, and the
 * editor page, are for staff only (customers 403, the signed-out 401 or sign in).
 */

export async function fixtures(base: Omit<Fixtures, "ids">) {
  const service = await createService({ id: base.team.id, name: base.team.name }, { name: `Authz Catalogue ${unique()}`, priceCents: 1_000 });
  await ensureCatalogue();
  const [plan] = await listPlans();
  return { catalogueServiceId: service.id, cataloguePlanId: plan!.id };
}

const login = { status: 302, location: "/login" };
const staffPage = byRole({ anonymous: login, customer: 403, team: 200 });
const serviceId = (f: Fixtures) => f.ids.catalogueServiceId;
const planId = (f: Fixtures) => f.ids.cataloguePlanId;

export const rows: AuthorizationRow[] = [
  { route: "api+/plans.ts", method: "GET", path: "/api/plans", expect: everyone(200) },
  { route: "api+/plans.ts", method: "POST", path: "/api/plans", expect: everyone(405) },
  {
    route: "api+/services+/_layout.ts",
    method: "POST",
    path: "/api/services",
    body: () => ({ json: { name: `Authz Service ${unique()}`, price: 12.5 } }),
    expect: byRole({ anonymous: 401, customer: 403, team: 201 }),
  },
  { route: "api+/services+/$id.ts", method: "GET", path: (f) => `/api/services/${serviceId(f)}`, expect: everyone(405) },
  {
    route: "api+/services+/$id.ts",
    method: "PATCH",
    path: (f) => `/api/services/${serviceId(f)}`,
    body: { json: { price: 11 } },
    expect: byRole({ anonymous: 401, customer: 403, team: 200 }),
  },
  {
    route: "api+/services+/$id.ts",
    method: "PATCH",
    path: `/api/services/${crypto.randomUUID()}`,
    note: "unknown id",
    body: { json: { price: 11 } },
    expect: byRole({ anonymous: 401, customer: 403, team: 404 }),
  },
  { route: "dashboard+/_staff+/catalogue.tsx", method: "GET", path: "/dashboard/catalogue", expect: staffPage },
  { route: "dashboard+/_staff+/catalogue.tsx", method: "GET", path: "/dashboard/catalogue?changes=all", note: "every change", expect: staffPage },
  {
    route: "dashboard+/_staff+/catalogue.tsx",
    method: "POST",
    path: "/dashboard/catalogue",
    body: (f) => ({ form: { formId: "x", intent: "move-service", id: serviceId(f), direction: "down" } }),
    expect: byRole({ anonymous: login, customer: 403, team: { status: 302, location: "/dashboard/catalogue#service-" } }),
  },
  { route: "dashboard+/_staff+/catalogue_.services.new.tsx", method: "GET", path: "/dashboard/catalogue/services/new", expect: staffPage },
  {
    route: "dashboard+/_staff+/catalogue_.services.new.tsx",
    method: "POST",
    path: "/dashboard/catalogue/services/new",
    body: () => ({ form: { formId: "service-new", intent: "create-service", name: `Authz New ${unique()}`, price: "10.00" } }),
    expect: byRole({ anonymous: login, customer: 403, team: { status: 302, location: "/dashboard/catalogue/services/" } }),
  },
  {
    route: "dashboard+/_staff+/catalogue_.services.$serviceId.tsx",
    method: "GET",
    path: (f) => `/dashboard/catalogue/services/${serviceId(f)}`,
    expect: staffPage,
  },
  {
    route: "dashboard+/_staff+/catalogue_.services.$serviceId.tsx",
    method: "GET",
    path: `/dashboard/catalogue/services/${crypto.randomUUID()}`,
    note: "unknown id",
    expect: byRole({ anonymous: login, customer: 403, team: 404 }),
  },
  {
    route: "dashboard+/_staff+/catalogue_.services.$serviceId.tsx",
    method: "POST",
    path: (f) => `/dashboard/catalogue/services/${serviceId(f)}`,
    body: (f) => ({ form: { formId: "x", intent: "update-service", id: serviceId(f), name: `Authz Page ${unique()}`, price: "10.00", active: "on" } }),
    expect: byRole({ anonymous: login, customer: 403, team: { status: 302, location: "/dashboard/catalogue/services/" } }),
  },
  { route: "dashboard+/_staff+/catalogue_.plans.$planId.tsx", method: "GET", path: (f) => `/dashboard/catalogue/plans/${planId(f)}`, expect: staffPage },
  {
    route: "dashboard+/_staff+/catalogue_.plans.$planId.tsx",
    method: "GET",
    path: `/dashboard/catalogue/plans/${crypto.randomUUID()}`,
    note: "unknown id",
    expect: byRole({ anonymous: login, customer: 403, team: 404 }),
  },
  {
    route: "dashboard+/_staff+/catalogue_.plans.$planId.tsx",
    method: "POST",
    path: (f) => `/dashboard/catalogue/plans/${planId(f)}`,
    body: (f) => ({ form: { formId: "x", intent: "update-plan", id: planId(f), price: "49", features: "One\nTwo" } }),
    expect: byRole({ anonymous: login, customer: 403, team: { status: 302, location: "/dashboard/catalogue/plans/" } }),
  },
];
