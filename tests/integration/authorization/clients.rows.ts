import { createUser } from "~/models/users.server";
import { db, schema } from "~/utils/db.server";

import { samples } from "../../support/reports-cases";
import { byRole, everyone, uniqueEmail } from "./helpers";
import type { AuthorizationRow, Fixtures } from "./types";

/**
 * Client teams over the API (decision 283): every member reads their client; only an owner renames
 * it, invites, changes roles and removes; another client's member is not found (404); the last
 * owner stays (409); staff list clients and open one by the client's id or any member's.
 */

/** A colleague of customer A made for one call, so that every call's removal has someone to remove. */
async function freshColleague(f: Fixtures) {
  const user = await createUser({ email: uniqueEmail("removed-colleague"), name: "Removed Colleague", role: "user" }, db, f.customerA.id);
  await db.insert(schema.clientMembers).values({ userId: user.id, clientId: f.customerA.id, role: "member", joinedAt: new Date() });
  return user.id;
}

const login = { status: 302, location: "/login" };
const staffApi = byRole({ anonymous: 401, customer: 403, team: 200 });
const staffPage = byRole({ anonymous: login, customer: 403, team: 200 });
const customerApi = (outcome: number) => byRole({ anonymous: 401, customer: outcome, team: 403 });
/** Rows that change the client: an owner's, any other role's refusal. */
const manage = { needs: "manage" } as const;

export const rows: AuthorizationRow[] = [
  { route: "api+/client+/_layout.ts", method: "GET", path: "/api/client", needs: "any", expect: customerApi(200) },
  {
    route: "api+/client+/_layout.ts",
    method: "PATCH",
    path: "/api/client",
    note: "renamed to the name it has",
    body: (f, call) => ({ json: { name: call.actor === "customerB" ? f.customerB.name : f.customerA.name } }),
    ...manage,
    expect: customerApi(200),
  },
  { route: "api+/client+/_layout.ts", method: "POST", path: "/api/client", expect: everyone(405) },
  {
    route: "api+/client+/members.ts",
    method: "POST",
    path: "/api/client/members",
    body: () => ({ json: { email: uniqueEmail("client-invite"), name: "Invited Person", role: "billing" } }),
    ...manage,
    expect: customerApi(201),
  },
  {
    route: "api+/client+/members.ts",
    method: "POST",
    path: "/api/client/members",
    note: "a staff e-mail",
    body: (f) => ({ json: { email: f.team.email, name: "Staff", role: "member" } }),
    ...manage,
    expect: customerApi(409),
  },
  { route: "api+/client+/members.ts", method: "GET", path: "/api/client/members", expect: everyone(405) },
  {
    route: "api+/client+/members.$userId.ts",
    method: "PATCH",
    path: (f) => `/api/client/members/${f.memberA.id}`,
    note: "A's member keeps their role",
    body: { json: { role: "member" } },
    ...manage,
    expect: { anonymous: 401, customerA: 200, customerB: 404, team: 403 },
  },
  {
    route: "api+/client+/members.$userId.ts",
    method: "PATCH",
    path: (f) => `/api/client/members/${f.customerB.id}`,
    note: "B, the last owner of their client, made a member",
    body: { json: { role: "member" } },
    ...manage,
    expect: { anonymous: 401, customerA: 404, customerB: 409, team: 403 },
  },
  {
    route: "api+/client+/members.$userId.ts",
    method: "DELETE",
    path: async (f) => `/api/client/members/${await freshColleague(f)}`,
    note: "a colleague of A",
    ...manage,
    expect: { anonymous: 401, customerA: 200, customerB: 404, team: 403 },
  },
  {
    route: "api+/client+/members.$userId.ts",
    method: "DELETE",
    path: (f) => `/api/client/members/${f.customerB.id}`,
    note: "B, the last owner, leaving",
    ...manage,
    expect: { anonymous: 401, customerA: 404, customerB: 409, team: 403 },
  },
  { route: "api+/client+/members.$userId.ts", method: "GET", path: (f) => `/api/client/members/${f.memberA.id}`, expect: everyone(405) },

  { route: "api+/clients+/_layout.ts", method: "GET", path: "/api/clients?search=Customer&page=1&limit=5", expect: staffApi },
  { route: "api+/clients+/_layout.ts", method: "POST", path: "/api/clients", expect: everyone(405) },
  { route: "api+/clients+/$id.ts", method: "GET", path: (f) => `/api/clients/${f.customerA.id}`, expect: staffApi },
  { route: "api+/clients+/$id.ts", method: "GET", path: (f) => `/api/clients/${f.billingA.id}`, note: "by a member's id", expect: staffApi },
  {
    route: "api+/clients+/$id.ts",
    method: "GET",
    path: (f) => `/api/clients/${f.team.id}`,
    note: "a staff id is no client",
    expect: byRole({ anonymous: 401, customer: 403, team: 404 }),
  },
  { route: "api+/clients+/$id.ts", method: "POST", path: (f) => `/api/clients/${f.customerA.id}`, expect: everyone(405) },
];

// Where a customer's id was, any member's id names their client.
const reportForm = (f: Fixtures) => () => {
  const form = new FormData();
  form.append("report", new Blob([new Uint8Array(samples.pdf())], { type: "application/pdf" }), "member.pdf");
  form.append("title", "Named by a member");
  form.append("userId", f.memberA.id);
  return form;
};
rows.push(
  {
    route: "api+/chat+/threads.$customerId.ts",
    method: "PATCH",
    path: (f) => `/api/chat/threads/${f.approverA.id}`,
    note: "A's thread by a colleague's id",
    body: { json: { status: "open" } },
    expect: staffApi,
  },
  {
    route: "api+/chat+/threads.$customerId.notes.ts",
    method: "POST",
    path: (f) => `/api/chat/threads/${f.memberA.id}/notes`,
    note: "A's thread by a colleague's id",
    body: { json: { body: "Internal: called their colleague" } },
    expect: byRole({ anonymous: 401, customer: 403, team: 201 }),
  },
  { route: "api+/users+/$id.purchases.ts", method: "GET", path: (f) => `/api/users/${f.billingA.id}/purchases`, note: "by a colleague of A", expect: staffApi },
  {
    route: "api+/reports+/service.$serviceId.upload.ts",
    method: "POST",
    path: (f) => `/api/reports/service/${f.ids.dashServiceA}/upload`,
    note: "for A, named by a colleague's id",
    body: (f) => ({ multipart: reportForm(f) }),
    expect: byRole({ anonymous: 401, customer: 403, team: 201 }),
  },
  {
    route: "api+/posts+/_layout.ts",
    method: "POST",
    path: "/api/posts",
    note: "for A, named by a colleague's id",
    body: (f) => ({ json: { customerId: f.approverA.id, channel: "x", scheduledAt: "2030-06-10T10:00:00Z", caption: "For A's team" } }),
    expect: byRole({ anonymous: 401, customer: 403, team: 201 }),
  },
  {
    route: "dashboard+/_staff+/inbox+/$customerId.tsx",
    method: "GET",
    path: (f) => `/dashboard/inbox/${f.memberA.id}`,
    note: "A's thread by a colleague's id",
    expect: staffPage,
  },
  {
    route: "dashboard+/_staff+/users+/$userId.tsx",
    method: "GET",
    path: (f) => `/dashboard/users/${f.approverA.id}`,
    note: "a colleague of A: staff are sent to the client's page",
    expect: byRole({ anonymous: login, customer: 403, team: { status: 302, location: "/dashboard/users/" } }),
  },
);
