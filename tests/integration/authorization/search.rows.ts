import { byRole } from "./helpers";
import type { AuthorizationRow } from "./types";

/** The staff search (decision 191): a page for staff; customers 403, the signed-out sign in. */

const login = { status: 302, location: "/login" };

export const rows: AuthorizationRow[] = [
  { route: "dashboard+/_staff+/search.tsx", method: "GET", path: "/dashboard/search", expect: byRole({ anonymous: login, customer: 403, team: 200 }) },
  {
    route: "dashboard+/_staff+/search.tsx",
    method: "GET",
    path: "/dashboard/search?q=customer%20b",
    note: "a search",
    expect: byRole({ anonymous: login, customer: 403, team: 200 }),
  },
  {
    route: "dashboard+/_staff+/search.tsx",
    method: "GET",
    path: `/dashboard/search?q=${"x".repeat(201)}`,
    note: "overlong",
    expect: byRole({ anonymous: login, customer: 403, team: 400 }),
  },
];
