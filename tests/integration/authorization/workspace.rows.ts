import { createSavedReply } from "~/models/saved-replies.server";

import { byRole, everyone } from "./helpers";
import type { AuthorizationRow, Fixtures } from "./types";

/**
 * The staff workspace (decision 155): thread notes, saved replies, purchase assignee and
 * due date, "my work". Staff only; a customer asking is 403 like any staff call.
 */

export async function fixtures(base: Omit<Fixtures, "ids">) {
  const reply = await createSavedReply(base.team, { title: "Authz reply", body: "Thanks!" });
  return { workspaceReply: reply.id };
}

const staffApi = byRole({ anonymous: 401, customer: 403, team: 200 });
/** A fresh saved reply for each call, so every actor's DELETE has one to delete. */
const freshReply = async (f: Fixtures) => `/api/saved-replies/${(await createSavedReply(f.team, { title: "Deleted by the table", body: "Bye" })).id}`;

export const rows: AuthorizationRow[] = [
  {
    route: "api+/chat+/threads.$customerId.notes.ts",
    method: "POST",
    path: (f) => `/api/chat/threads/${f.customerA.id}/notes`,
    body: { json: { body: "Internal: called them" } },
    expect: byRole({ anonymous: 401, customer: 403, team: 201 }),
  },
  {
    route: "api+/chat+/threads.$customerId.notes.ts",
    method: "POST",
    path: (f) => `/api/chat/threads/${f.team.id}/notes`,
    note: "a staff id is no thread",
    body: { json: { body: "x" } },
    expect: byRole({ anonymous: 401, customer: 403, team: 404 }),
  },
  { route: "api+/chat+/threads.$customerId.notes.ts", method: "GET", path: (f) => `/api/chat/threads/${f.customerA.id}/notes`, expect: everyone(405) },
  { route: "api+/saved-replies.ts", method: "GET", path: "/api/saved-replies", expect: staffApi },
  {
    route: "api+/saved-replies.ts",
    method: "POST",
    path: "/api/saved-replies",
    body: { json: { title: "Hello", body: "Hi there" } },
    expect: byRole({ anonymous: 401, customer: 403, team: 201 }),
  },
  { route: "api+/saved-replies.$id.ts", method: "DELETE", path: freshReply, expect: staffApi },
  {
    route: "api+/saved-replies.$id.ts",
    method: "DELETE",
    path: `/api/saved-replies/${crypto.randomUUID()}`,
    note: "unknown id",
    expect: byRole({ anonymous: 401, customer: 403, team: 404 }),
  },
  { route: "api+/saved-replies.$id.ts", method: "GET", path: (f) => `/api/saved-replies/${f.ids.workspaceReply}`, expect: everyone(405) },
  { route: "api+/services+/purchases.ts", method: "GET", path: "/api/services/purchases?assigneeId=me&due=overdue", note: "my work", expect: staffApi },
  {
    route: "api+/services+/purchases.$id.ts",
    method: "PATCH",
    path: (f) => `/api/services/purchases/${f.ids.dashPurchaseA}`,
    note: "assign to oneself with a due date",
    body: (f, call) => ({ json: { assigneeId: call.user?.id ?? f.team.id, dueAt: "2030-01-01T09:00:00Z" } }),
    expect: staffApi,
  },
];

rows.push(
  {
    route: "dashboard+/_staff+/work.tsx",
    method: "GET",
    path: "/dashboard/work?due=overdue",
    expect: byRole({ anonymous: { status: 302, location: "/login" }, customer: 403, team: 200 }),
  },
  {
    route: "dashboard+/_staff+/work.tsx",
    method: "POST",
    path: "/dashboard/work",
    note: "someone else's purchase",
    body: (f) => ({ form: { intent: "complete", purchaseId: f.ids.dashPurchaseB } }),
    expect: byRole({ anonymous: { status: 302, location: "/login" }, customer: 403, team: 404 }),
  },
);

// The inbox's note form and the customer page (decision 185).
const loginPage = { status: 302, location: "/login" };
rows.push(
  {
    route: "dashboard+/_staff+/inbox+/$customerId.tsx",
    method: "POST",
    path: (f) => `/dashboard/inbox/${f.customerA.id}`,
    note: "an internal note",
    body: { form: { intent: "note", body: "Called them" } },
    expect: byRole({ anonymous: loginPage, customer: 403, team: { status: 302, location: "/dashboard/inbox/" } }),
  },
  {
    route: "dashboard+/_staff+/inbox+/$customerId.tsx",
    method: "POST",
    path: (f) => `/dashboard/inbox/${f.customerA.id}`,
    note: "an empty note",
    body: { form: { intent: "note", body: "  " } },
    expect: byRole({ anonymous: loginPage, customer: 403, team: 400 }),
  },
  {
    route: "dashboard+/_staff+/customers.$customerId.tsx",
    method: "GET",
    path: (f) => `/dashboard/customers/${f.customerA.id}`,
    note: "the former address of the customer page",
    expect: byRole({ anonymous: loginPage, customer: 403, team: { status: 301, location: "/dashboard/users/" } }),
  },
  {
    route: "dashboard+/_staff+/users+/$userId.tsx",
    method: "POST",
    path: (f) => `/dashboard/users/${f.customerA.id}`,
    note: "an internal note",
    body: { form: { intent: "note", body: "Prefers e-mail" } },
    expect: byRole({ anonymous: loginPage, customer: 403, team: { status: 302, location: "/dashboard/users/" } }),
  },
  {
    route: "dashboard+/_staff+/users+/$userId.tsx",
    method: "POST",
    path: (f) => `/dashboard/users/${f.team.id}`,
    note: "a note on a staff id",
    body: { form: { intent: "note", body: "x" } },
    expect: byRole({ anonymous: loginPage, customer: 403, team: 404 }),
  },
);

// The saved replies page (decision 185): staff only, forms.
rows.push(
  {
    route: "dashboard+/_staff+/saved-replies.tsx",
    method: "GET",
    path: "/dashboard/saved-replies",
    expect: byRole({ anonymous: loginPage, customer: 403, team: 200 }),
  },
  {
    route: "dashboard+/_staff+/saved-replies.tsx",
    method: "POST",
    path: "/dashboard/saved-replies",
    note: "a new reply",
    body: { form: { intent: "create", title: "Hello", body: "Hi there" } },
    expect: byRole({ anonymous: loginPage, customer: 403, team: { status: 302, location: "/dashboard/saved-replies" } }),
  },
  {
    route: "dashboard+/_staff+/saved-replies.tsx",
    method: "POST",
    path: "/dashboard/saved-replies",
    note: "delete an unknown reply",
    body: { form: { intent: "delete", replyId: crypto.randomUUID() } },
    expect: byRole({ anonymous: loginPage, customer: 403, team: 404 }),
  },
);
