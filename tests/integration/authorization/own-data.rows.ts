import { byRole, everyone } from "./helpers";
import type { AuthorizationRow } from "./types";

/**
 * "Your own data" (decision 240): the export (any signed-in account, its own data only) and deleting
 * a customer account. The table's customers are shared by every row, so deletion is called with a
 * wrong password here (400 after authorization); tests/integration/own-data.test.ts deletes for real.
 */

const login = { status: 302, location: "/login" };

/** Every member of a client, whatever their role, has their own data. */
export const needs = "any";

export const rows: AuthorizationRow[] = [
  { route: "api+/account+/export.ts", method: "GET", path: "/api/account/export", expect: byRole({ anonymous: 401, customer: 200, team: 200 }) },
  { route: "api+/account+/export.ts", method: "POST", path: "/api/account/export", expect: everyone(405) },
  {
    route: "api+/account+/_layout.ts",
    method: "DELETE",
    path: "/api/account",
    note: "wrong password",
    body: { json: { password: "not-the-password" } },
    expect: byRole({ anonymous: 401, customer: 400, team: 403 }),
  },
  {
    route: "dashboard+/_customer+/account_.delete.tsx",
    method: "GET",
    path: "/dashboard/account/delete",
    expect: byRole({ anonymous: login, customer: 200, team: { status: 302, location: "/dashboard/account" } }),
  },
  {
    route: "dashboard+/_customer+/account_.delete.tsx",
    method: "POST",
    path: "/dashboard/account/delete",
    note: "wrong password",
    body: { form: { password: "not-the-password", confirm: "yes" } },
    expect: byRole({ anonymous: login, customer: 400, team: { status: 302, location: "/dashboard/account" } }),
  },
];
