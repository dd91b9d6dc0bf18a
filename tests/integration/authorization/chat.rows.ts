import { byRole, everyone } from "./helpers";
import type { AuthorizationRow } from "./types";

/** Chat (decision 050): a support thread is its customer's and every team member's; others get 404. */

const thread = "api+/chat+/conversation.$userId.ts";
const read = "api+/chat+/read.ts";
const onlyA = { anonymous: 401, customerA: 200, customerB: 404, team: 200 } as const;
/** The client's members who chat see the thread; to the others it is not there. */
const chat = { needs: "chat", refused: 404 } as const;

export const rows: AuthorizationRow[] = [
  { route: thread, method: "GET", path: (f) => `/api/chat/conversation/${f.customerA.id}`, note: "customer A's thread", ...chat, expect: onlyA },
  {
    route: thread,
    method: "GET",
    path: (f) => `/api/chat/conversation/${f.customerA.id}?limit=10`,
    note: "customer A's thread, paged",
    ...chat,
    expect: onlyA,
  },
  {
    route: thread,
    method: "GET",
    path: (f) => `/api/chat/conversation/${f.billingA.id}`,
    note: "customer A's thread by a colleague's id",
    ...chat,
    expect: onlyA,
  },
  {
    route: thread,
    method: "GET",
    path: (f) => `/api/chat/conversation/${f.team.id}`,
    note: "a staff id is no thread",
    expect: byRole({ anonymous: 401, customer: 404, team: 404 }),
  },
  { route: thread, method: "POST", path: (f) => `/api/chat/conversation/${f.customerA.id}`, expect: everyone(405) },

  {
    route: read,
    method: "POST",
    path: "/api/chat/read",
    note: "customer A's thread",
    body: (f) => ({ json: { userId: f.customerA.id } }),
    ...chat,
    expect: onlyA,
  },
  {
    route: read,
    method: "POST",
    path: "/api/chat/read",
    note: "customer A's thread by a colleague's id",
    body: (f) => ({ json: { userId: f.memberA.id } }),
    ...chat,
    expect: onlyA,
  },
  {
    route: read,
    method: "POST",
    path: "/api/chat/read",
    note: "no thread named",
    body: { json: {} },
    expect: byRole({ anonymous: 401, customer: 400, team: 400 }),
  },
  { route: read, method: "GET", path: "/api/chat/read", expect: everyone(405) },
];
