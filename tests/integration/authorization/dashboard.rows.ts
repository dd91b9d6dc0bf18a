import { eq } from "drizzle-orm";

import { seedCatalogue } from "#db/seed";
import { createDownloadUrl } from "~/models/reports.server";
import { db, schema } from "~/utils/db.server";
import { putBuffer } from "~/utils/storage.server";

import { byRole, everyone, messageForm } from "./helpers";
import type { AuthorizationRow, Fixtures } from "./types";

/**
 * The dashboard (decision 040): pages, API and file downloads. Customer A owns a purchase and a
 * report; customer B asking for them gets 404, like an id that does not exist.
 */

const PDF = Buffer.from("%PDF-1.4\n%authz\n%%EOF\n");
const pdfForm = (f: Fixtures) => () => {
  const form = new FormData();
  form.append("report", new Blob([new Uint8Array(PDF)], { type: "application/pdf" }), "authz.pdf");
  form.append("title", "Authorization check");
  form.append("userId", f.customerA.id);
  return form;
};

export async function fixtures(base: Omit<Fixtures, "ids">) {
  await seedCatalogue(db);
  const [service, otherService] = await db.select().from(schema.services).orderBy(schema.services.sortOrder).limit(2);
  const order = async (userId: string, serviceId: string, cents: number) => {
    const [o] = await db
      .insert(schema.orders)
      .values({ email: `${userId}@authz.test`, name: "Buyer", userId, status: "paid", totalCents: cents })
      .returning();
    const [p] = await db.insert(schema.purchases).values({ orderId: o.id, serviceId, userId, amountCents: cents, status: "in_progress" }).returning();
    return p;
  };
  const purchaseA = await order(base.customerA.id, service.id, service.priceCents);
  const purchaseB = await order(base.customerB.id, otherService.id, otherService.priceCents);
  const storageKey = `reports/${crypto.randomUUID()}.pdf`;
  await putBuffer(storageKey, PDF, "application/pdf");
  const [report] = await db
    .insert(schema.reports)
    .values({
      userId: base.customerA.id,
      serviceId: service.id,
      purchaseId: purchaseA.id,
      title: "A's report",
      fileName: "a.pdf",
      fileSize: PDF.length,
      mimeType: "application/pdf",
      storageKey,
    })
    .returning();
  const [emailRow] = await db.select({ email: schema.users.email }).from(schema.users).where(eq(schema.users.id, base.customerA.id));
  return { dashPurchaseA: purchaseA.id, dashPurchaseB: purchaseB.id, dashServiceA: service.id, dashReportA: report.id, dashEmailA: emailRow.email };
}

const login = { status: 302, location: "/login" };
const toUsers = { status: 302, location: "/dashboard/users" };
/** Customer A's thing: A and staff may, B gets 404, the signed-out go to sign in. */
const pageOfA = { anonymous: login, customerA: 200, customerB: 404, team: 200 } as const;
const apiOfA = { anonymous: 401, customerA: 200, customerB: 404, team: 200 } as const;
const staffPage = byRole({ anonymous: login, customer: 403, team: 200 });
const staffApi = byRole({ anonymous: 401, customer: 403, team: 200 });
const customerApi = byRole({ anonymous: 401, customer: 200, team: 403 });

const purchaseA = (f: Fixtures) => f.ids.dashPurchaseA;
const reportA = (f: Fixtures) => f.ids.dashReportA;

export const rows: AuthorizationRow[] = [
  // Pages
  { route: "dashboard+/_layout.tsx", method: "GET", path: "/dashboard", needs: "any", expect: byRole({ anonymous: login, customer: 200, team: 200 }) },
  {
    route: "dashboard+/_index.tsx",
    method: "GET",
    path: "/dashboard",
    note: "staff: the Overview; a billing member starts at their receipts",
    needs: "work",
    refused: { status: 302, location: "/dashboard/receipts" },
    expect: byRole({ anonymous: login, customer: { status: 302, location: "/dashboard/services" }, team: 200 }),
  },
  {
    route: "dashboard+/_customer+/services._index.tsx",
    method: "GET",
    path: "/dashboard/services",
    needs: "work",
    expect: byRole({ anonymous: login, customer: 200, team: toUsers }),
  },
  {
    route: "dashboard+/_customer+/services.$purchaseId.tsx",
    method: "GET",
    path: (f) => `/dashboard/services/${purchaseA(f)}`,
    note: "A's purchase; staff are sent to A's page",
    needs: "work",
    refused: 404,
    expect: { ...pageOfA, team: { status: 302, location: "/dashboard/users/" } },
  },
  {
    route: "dashboard+/_customer+/services.$purchaseId.tsx",
    method: "GET",
    path: "/dashboard/services/not-an-id",
    note: "malformed id",
    expect: byRole({ anonymous: login, customer: 404, team: 404 }),
  },
  {
    route: "dashboard+/_customer+/services.$purchaseId._index.tsx",
    method: "GET",
    path: (f) => `/dashboard/services/${purchaseA(f)}`,
    needs: "work",
    refused: 404,
    expect: pageOfA,
  },
  {
    route: "dashboard+/_customer+/services.$purchaseId.message.tsx",
    method: "GET",
    path: (f) => `/dashboard/services/${purchaseA(f)}/message`,
    needs: "chat",
    refused: 404,
    expect: pageOfA,
  },
  {
    route: "dashboard+/_customer+/services.$purchaseId.message.tsx",
    method: "POST",
    path: (f) => `/dashboard/services/${purchaseA(f)}/message`,
    note: "the tab's message form (multipart)",
    needs: "chat",
    refused: 404,
    body: messageForm,
    expect: {
      anonymous: login,
      customerA: { status: 302, location: "/dashboard/services/" },
      customerB: 404,
      team: { status: 302, location: "/dashboard/services/" },
    },
  },
  {
    route: "dashboard+/_customer+/reports.tsx",
    method: "GET",
    path: "/dashboard/reports",
    needs: "work",
    expect: byRole({ anonymous: login, customer: 200, team: toUsers }),
  },
  { route: "dashboard+/_staff+/users+/_index.tsx", method: "GET", path: "/dashboard/users?search=customer&page=2", expect: staffPage },
  { route: "dashboard+/_staff+/users+/$userId.tsx", method: "GET", path: (f) => `/dashboard/users/${f.customerA.id}`, expect: staffPage },
  {
    route: "dashboard+/_staff+/users+/$userId.tsx",
    method: "GET",
    path: (f) => `/dashboard/users/${f.team.id}`,
    note: "a staff id is no customer",
    expect: byRole({ anonymous: login, customer: 403, team: 404 }),
  },
  { route: "dashboard+/_staff+/users+/$userId._index.tsx", method: "GET", path: (f) => `/dashboard/users/${f.customerA.id}`, expect: staffPage },
  {
    route: "dashboard+/_staff+/users+/$userId._index.tsx",
    method: "POST",
    path: (f) => `/dashboard/users/${f.customerA.id}?index`,
    note: "status change",
    body: (f) => ({ form: { intent: "status", purchaseId: purchaseA(f), status: "in_progress" } }),
    expect: byRole({ anonymous: login, customer: 403, team: { status: 302, location: "/dashboard/users/" } }),
  },
  {
    route: "dashboard+/_staff+/users+/$userId._index.tsx",
    method: "POST",
    path: (f) => `/dashboard/users/${f.customerA.id}?index`,
    note: "B's purchase through A's page",
    body: (f) => ({ form: { intent: "status", purchaseId: f.ids.dashPurchaseB, status: "completed" } }),
    expect: byRole({ anonymous: login, customer: 403, team: 404 }),
  },
  {
    route: "dashboard+/_staff+/users+/$userId._index.tsx",
    method: "POST",
    path: (f) => `/dashboard/users/${f.customerA.id}?index&upload=${purchaseA(f)}`,
    note: "upload without JavaScript",
    body: (f) => ({ multipart: pdfForm(f) }),
    expect: byRole({ anonymous: login, customer: 403, team: { status: 302, location: "/dashboard/users/" } }),
  },
  { route: "dashboard+/_staff+/users+/$userId.message.tsx", method: "GET", path: (f) => `/dashboard/users/${f.customerA.id}/message`, expect: staffPage },
  {
    route: "dashboard+/_staff+/users+/$userId.message.tsx",
    method: "POST",
    path: (f) => `/dashboard/users/${f.customerA.id}/message`,
    note: "the tab's message form (multipart)",
    body: messageForm,
    expect: byRole({ anonymous: login, customer: 403, team: { status: 302, location: "/dashboard/users/" } }),
  },

  // Files: the signed-in owner or staff, or anyone with a valid signed link.
  {
    route: "files.reports.$reportId.ts",
    method: "GET",
    path: (f) => `/files/reports/${reportA(f)}`,
    note: "session",
    needs: "work",
    refused: 404,
    expect: { ...apiOfA, anonymous: 404 },
  },
  {
    route: "files.reports.$reportId.ts",
    method: "GET",
    path: (f) => new URL(createDownloadUrl(reportA(f))).pathname + new URL(createDownloadUrl(reportA(f))).search,
    note: "signed link",
    expect: everyone(200),
  },
  {
    route: "files.reports.$reportId.ts",
    method: "GET",
    path: (f) => `/files/reports/${reportA(f)}?expires=${Date.now() + 60_000}&sig=forged`,
    note: "forged link",
    expect: everyone(404),
  },

  // JSON API
  { route: "api+/services+/my-purchases.ts", method: "GET", path: "/api/services/my-purchases", needs: "work", expect: customerApi },
  { route: "api+/services+/my-purchases.ts", method: "POST", path: "/api/services/my-purchases", expect: everyone(405) },
  {
    route: "api+/services+/purchases.ts",
    method: "GET",
    path: (f) => `/api/services/purchases?email=${encodeURIComponent(f.ids.dashEmailA)}`,
    expect: staffApi,
  },
  { route: "api+/services+/purchases.ts", method: "POST", path: "/api/services/purchases", expect: everyone(405) },
  {
    route: "api+/services+/purchases.$id.ts",
    method: "GET",
    path: (f) => `/api/services/purchases/${purchaseA(f)}`,
    needs: "work",
    refused: 404,
    expect: apiOfA,
  },
  {
    route: "api+/services+/purchases.$id.ts",
    method: "PATCH",
    path: (f) => `/api/services/purchases/${purchaseA(f)}`,
    body: { json: { status: "completed" } },
    expect: staffApi,
  },
  { route: "api+/services+/purchases.$id.ts", method: "POST", path: (f) => `/api/services/purchases/${purchaseA(f)}`, expect: everyone(405) },
  { route: "api+/users+/_layout.ts", method: "GET", path: "/api/users?search=Customer&page=1&limit=5", expect: staffApi },
  { route: "api+/users+/_layout.ts", method: "POST", path: "/api/users", expect: everyone(405) },
  { route: "api+/users+/count.ts", method: "GET", path: "/api/users/count", needs: "any", expect: byRole({ anonymous: 401, customer: 200, team: 200 }) },
  { route: "api+/users+/count.ts", method: "POST", path: "/api/users/count", expect: everyone(405) },
  { route: "api+/users+/$id.purchases.ts", method: "GET", path: (f) => `/api/users/${f.customerA.id}/purchases`, expect: staffApi },
  { route: "api+/users+/$id.purchases.ts", method: "POST", path: (f) => `/api/users/${f.customerA.id}/purchases`, expect: everyone(405) },
  { route: "api+/reports+/my-reports.ts", method: "GET", path: "/api/reports/my-reports", needs: "work", expect: customerApi },
  { route: "api+/reports+/my-reports.ts", method: "POST", path: "/api/reports/my-reports", expect: everyone(405) },
  {
    route: "api+/reports+/service.$serviceId.ts",
    method: "GET",
    path: (f) => `/api/reports/service/${f.ids.dashServiceA}?userId=${f.customerA.id}`,
    note: "A's reports by userId",
    needs: "work",
    expect: apiOfA,
  },
  {
    route: "api+/reports+/service.$serviceId.ts",
    method: "GET",
    path: (f) => `/api/reports/service/${f.ids.dashServiceA}?userId=${f.approverA.id}`,
    note: "A's reports by a colleague's id",
    needs: "work",
    expect: apiOfA,
  },
  { route: "api+/reports+/service.$serviceId.ts", method: "POST", path: (f) => `/api/reports/service/${f.ids.dashServiceA}`, expect: everyone(405) },
  {
    route: "api+/reports+/service.$serviceId.upload.ts",
    method: "POST",
    path: (f) => `/api/reports/service/${f.ids.dashServiceA}/upload`,
    body: (f) => ({ multipart: pdfForm(f) }),
    expect: byRole({ anonymous: 401, customer: 403, team: 201 }),
  },
  {
    route: "api+/reports+/service.$serviceId.upload.ts",
    method: "GET",
    path: (f) => `/api/reports/service/${f.ids.dashServiceA}/upload`,
    expect: everyone(405),
  },
  { route: "api+/reports+/$id.download.ts", method: "GET", path: (f) => `/api/reports/${reportA(f)}/download`, needs: "work", refused: 404, expect: apiOfA },
  { route: "api+/reports+/$id.download.ts", method: "POST", path: (f) => `/api/reports/${reportA(f)}/download`, expect: everyone(405) },
];
