import { byRole, uniqueEmail } from "./helpers";
import type { AuthorizationRow } from "./types";

/**
 * The Team page (/dashboard/company, decision 295): any member opens it; only an owner renames,
 * invites and changes roles; a customer names only their own client's members (another client's
 * member: 404); the last owner cannot leave (409); staff have their own users list.
 */

const login = { status: 302, location: "/login" };
const ownPage = { status: 302, location: "/dashboard/company" };
const route = "dashboard+/_customer+/company.tsx";
const path = "/dashboard/company";

export const rows: AuthorizationRow[] = [
  { route, method: "GET", path, needs: "any", expect: byRole({ anonymous: login, customer: 200, team: { status: 302, location: "/dashboard/users" } }) },
  {
    route,
    method: "POST",
    path,
    note: "rename (to the name it has)",
    needs: "manage",
    body: (f, call) => ({ form: { intent: "rename", name: call.actor === "customerB" ? f.customerB.name : f.customerA.name } }),
    expect: byRole({ anonymous: login, customer: ownPage, team: 403 }),
  },
  {
    route,
    method: "POST",
    path,
    note: "invite",
    needs: "manage",
    body: () => ({ form: { intent: "invite", email: uniqueEmail("company-invite"), name: "Invited Row", role: "billing" } }),
    expect: byRole({ anonymous: login, customer: ownPage, team: 403 }),
  },
  {
    route,
    method: "POST",
    path,
    note: "customer A's role (unchanged)",
    needs: "manage",
    body: (f) => ({ form: { intent: "role", userId: f.customerA.id, role: "owner" } }),
    expect: { anonymous: login, customerA: ownPage, customerB: 404, team: 403 },
  },
  {
    route,
    method: "POST",
    path,
    note: "remove customer B (the last owner of their client)",
    body: (f) => ({ form: { intent: "remove", userId: f.customerB.id, confirm: "yes" } }),
    expect: { anonymous: login, customerA: 404, customerB: 409, team: 403 },
  },
];
