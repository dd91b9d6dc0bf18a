import { eq } from "drizzle-orm";

import { seedCatalogue } from "#db/seed";
import { db, schema } from "~/utils/db.server";
import { putBuffer } from "~/utils/storage.server";

import { byRole, everyone } from "./helpers";
import type { AuthorizationRow, Fixtures } from "./types";

/**
 * Report versions and deletion (decision 221): staff only. Each DELETE gets a report of its own so
 * every actor's call finds one to delete; earlier versions are staff's alone (404 to anyone else).
 */

const PDF = Buffer.from("%PDF-1.4\n%authz versions\n%%EOF\n");

async function storedFile() {
  const storageKey = `reports/${crypto.randomUUID()}.pdf`;
  await putBuffer(storageKey, PDF, "application/pdf");
  return { fileName: "v.pdf", fileSize: PDF.length, mimeType: "application/pdf", storageKey };
}

async function reportOf(userId: string) {
  await seedCatalogue(db);
  const [service] = await db.select().from(schema.services).orderBy(schema.services.sortOrder).limit(1);
  const [report] = await db
    .insert(schema.reports)
    .values({ userId, serviceId: service!.id, title: "Versioned report", ...(await storedFile()) })
    .returning();
  return report!.id;
}

export async function fixtures(base: Omit<Fixtures, "ids">) {
  const versionsReport = await reportOf(base.customerA.id);
  const [version] = await db
    .insert(schema.reportVersions)
    .values({ reportId: versionsReport, version: 1, uploadedAt: new Date(), note: "first", ...(await storedFile()) })
    .returning();
  await db.update(schema.reports).set({ version: 2 }).where(eq(schema.reports.id, versionsReport));
  return { versionsReport, versionsVersion: version!.id };
}

const login = { status: 302, location: "/login" };
const staffApi = byRole({ anonymous: 401, customer: 403, team: 200 });
const staffPage = byRole({ anonymous: login, customer: 403, team: 200 });
const versionForm = () => () => {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(PDF)], { type: "application/pdf" }), "next.pdf");
  form.append("note", "A corrected figure");
  return form;
};
const reportPage = (f: Fixtures) => `/dashboard/users/${f.customerA.id}/reports/${f.ids.versionsReport}`;

export const rows: AuthorizationRow[] = [
  {
    route: "api+/reports+/$id.versions.ts",
    method: "POST",
    path: (f) => `/api/reports/${f.ids.versionsReport}/versions`,
    body: { multipart: versionForm() },
    expect: byRole({ anonymous: 401, customer: 403, team: 201 }),
  },
  { route: "api+/reports+/$id.versions.ts", method: "GET", path: (f) => `/api/reports/${f.ids.versionsReport}/versions`, expect: everyone(405) },
  { route: "api+/reports+/$id.ts", method: "DELETE", path: async (f) => `/api/reports/${await reportOf(f.customerA.id)}`, expect: staffApi },
  {
    route: "api+/reports+/$id.ts",
    method: "DELETE",
    path: `/api/reports/${crypto.randomUUID()}`,
    note: "unknown id",
    expect: byRole({ anonymous: 401, customer: 403, team: 404 }),
  },
  { route: "api+/reports+/$id.ts", method: "GET", path: (f) => `/api/reports/${f.ids.versionsReport}`, expect: everyone(405) },
  {
    route: "files.reports.$reportId.versions.$versionId.ts",
    method: "GET",
    path: (f) => `/files/reports/${f.ids.versionsReport}/versions/${f.ids.versionsVersion}`,
    expect: byRole({ anonymous: 404, customer: 404, team: 200 }),
  },
  { route: "dashboard+/_staff+/users+/$userId.reports.$reportId.tsx", method: "GET", path: reportPage, expect: staffPage },
  {
    route: "dashboard+/_staff+/users+/$userId.reports.$reportId.tsx",
    method: "POST",
    path: reportPage,
    note: "delete, first step (asks to confirm)",
    body: { form: { intent: "delete" } },
    expect: staffPage,
  },
];
