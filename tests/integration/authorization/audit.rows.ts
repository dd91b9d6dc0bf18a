import { byRole, everyone } from "./helpers";
import type { AuthorizationRow } from "./types";

/** The audit log (decision 220): staff only, read only, over the API, the page and its CSV. */

const login = { status: 302, location: "/login" };
const staffPage = byRole({ anonymous: login, customer: 403, team: 200 });
const staffApi = byRole({ anonymous: 401, customer: 403, team: 200 });

export const rows: AuthorizationRow[] = [
  { route: "api+/audit.ts", method: "GET", path: "/api/audit?action=order.refund&page=1&limit=20", expect: staffApi },
  { route: "api+/audit.ts", method: "GET", path: (f) => `/api/audit?actorId=${f.team.id}`, note: "one staff member", expect: staffApi },
  { route: "api+/audit.ts", method: "POST", path: "/api/audit", body: { json: {} }, expect: everyone(405) },
  { route: "dashboard+/_staff+/audit+/_index.tsx", method: "GET", path: "/dashboard/audit?action=report.upload", expect: staffPage },
  { route: "dashboard+/_staff+/audit+/export[.]csv.ts", method: "GET", path: "/dashboard/audit/export.csv?action=order.refund", expect: staffPage },
];
