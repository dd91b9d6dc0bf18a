import { createPost, reviewPost, updatePost } from "~/models/posts.server";

import { byRole, everyone } from "./helpers";
import type { AuthorizationRow, Fixtures } from "./types";

/**
 * API keys (decision 284) and the publishing hand-off (decision 285): every signed-in person manages
 * their own keys (a staff-only scope is refused to a customer); only staff mark an approved post
 * published. Rows that publish get a fresh approved post per call.
 */

const login = { status: 302, location: "/login?redirectTo=" };
const signedIn = (outcome: number | { status: number; location?: string }) => byRole({ anonymous: 401, customer: outcome, team: outcome });
const NO_SUCH_ID = "00000000-0000-4000-8000-000000000000";
const when = "2030-06-12T10:00:00Z";

async function postFor(f: Fixtures, status: "approved" | "in_review") {
  const post = await createPost(f.team, { customerId: f.customerA.id, channel: "linkedin", scheduledAt: when, caption: "Authz hand-off" });
  await updatePost(f.team, post.id, { status: "in_review" });
  if (status === "approved") await reviewPost(f.customerA, post.id, { decision: "approve" });
  return post.id;
}

/** Every member of a client keeps their own keys, whatever their role (a key holds no more than its person may do). */
export const needs = "any";

export const rows: AuthorizationRow[] = [
  { route: "api+/account+/api-keys.ts", method: "GET", path: "/api/account/api-keys", expect: signedIn(200) },
  {
    route: "api+/account+/api-keys.ts",
    method: "POST",
    path: "/api/account/api-keys",
    note: "a read key",
    body: { json: { name: "Authz key", scopes: ["read"] } },
    expect: signedIn(201),
  },
  {
    route: "api+/account+/api-keys.ts",
    method: "POST",
    path: "/api/account/api-keys",
    note: "a staff-only scope",
    body: { json: { name: "Authz orders key", scopes: ["orders:read"] } },
    expect: byRole({ anonymous: 401, customer: 403, team: 201 }),
  },
  { route: "api+/account+/api-keys.$id.ts", method: "GET", path: `/api/account/api-keys/${NO_SUCH_ID}`, expect: everyone(405) },
  { route: "api+/account+/api-keys.$id.ts", method: "DELETE", path: `/api/account/api-keys/${NO_SUCH_ID}`, note: "not there", expect: signedIn(404) },
  { route: "api+/posts+/$id.published.ts", method: "GET", path: `/api/posts/${NO_SUCH_ID}/published`, expect: everyone(405) },
  {
    route: "api+/posts+/$id.published.ts",
    method: "POST",
    path: async (f) => `/api/posts/${await postFor(f, "approved")}/published`,
    note: "an approved post",
    body: { json: { permalink: "https://www.linkedin.com/feed/update/urn:li:activity:1/" } },
    expect: byRole({ anonymous: 401, customer: 403, team: 200 }),
  },
  {
    route: "api+/posts+/$id.published.ts",
    method: "POST",
    path: async (f) => `/api/posts/${await postFor(f, "in_review")}/published`,
    note: "a post still in review",
    body: { json: { permalink: "https://www.linkedin.com/feed/update/urn:li:activity:2/" } },
    expect: byRole({ anonymous: 401, customer: 403, team: 409 }),
  },
  { route: "dashboard+/api-keys.tsx", method: "GET", path: "/dashboard/api-keys", expect: byRole({ anonymous: login, customer: 200, team: 200 }) },
  {
    route: "dashboard+/api-keys.tsx",
    method: "POST",
    path: "/dashboard/api-keys",
    note: "make a key",
    body: { form: { intent: "create", name: "Authz page key", scopes: "read" } },
    expect: byRole({ anonymous: login, customer: 200, team: 200 }),
  },
  {
    route: "dashboard+/api-keys.tsx",
    method: "POST",
    path: "/dashboard/api-keys",
    note: "revoke a key that is not there",
    body: { form: { intent: "revoke", keyId: NO_SUCH_ID } },
    expect: byRole({ anonymous: login, customer: { status: 302, location: "/dashboard/api-keys" }, team: { status: 302, location: "/dashboard/api-keys" } }),
  },
];
