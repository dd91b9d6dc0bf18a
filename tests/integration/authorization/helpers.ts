import { roleCovers } from "~/domain/clients";
import { createSessions } from "~/models/sessions.server";
import { createUser } from "~/models/users.server";
import { db, schema } from "~/utils/db.server";

import { cookieOf, createTestUser } from "../../support/factories";
import { BASE_URL, uniqueEmail as makeUniqueEmail } from "../../support/requests";
import {
  MEMBER_ROLES,
  type Actor,
  type AuthorizationRow,
  type Call,
  type Expected,
  type Fixtures,
  type Member,
  type RowsModule,
  type Transport,
} from "./types";

/** Accounts, sessions and request context for authorization and auth tests. */

export { BASE_URL, loadContext, nextIp } from "../../support/requests";

export const uniqueEmail = (prefix = "user") => makeUniqueEmail(prefix, "authz.test");
export { bearerFor, createTestUser, sessionCookieFor } from "../../support/factories";

/**
 * Sessions made ahead, a batch at a time, per user and transport: each is handed out once. A row
 * that ends every session of an account would end those made ahead too: such a row needs an
 * account of its own (none of the table's rows does that today).
 */
const madeAhead = new Map<string, { token: string; expiresAt: Date }[]>();
const BATCH = 48;

async function freshSession(userId: string, transport: Transport) {
  const key = `${userId} ${transport}`;
  let left = madeAhead.get(key);
  if (!left?.length) madeAhead.set(key, (left = await createSessions(userId, transport, BATCH)));
  return left.pop()!;
}

/**
 * Fresh credentials over one transport, never used before: a browser's cookie (with its Origin) or a
 * bearer token. A row may sign out or revoke the session it was given; the next call has its own.
 */
export async function credentialHeaders(userId: string, transport: Transport, method = "GET"): Promise<Record<string, string>> {
  const session = await freshSession(userId, transport);
  if (transport === "bearer") return { Authorization: `Bearer ${session.token}` };
  return { Cookie: await cookieOf(session), ...(method === "GET" ? {} : { Origin: BASE_URL }) };
}

/** Shorthands for a row's `expect`. */
export function everyone(outcome: Expected): Record<Actor, Expected> {
  return { anonymous: outcome, customerA: outcome, customerB: outcome, team: outcome };
}

export function byRole(outcomes: { anonymous: Expected; customer: Expected; team: Expected }): Record<Actor, Expected> {
  return { anonymous: outcomes.anonymous, customerA: outcomes.customer, customerB: outcomes.customer, team: outcomes.team };
}

/**
 * What a member of customer A's client gets from a row: its `members` entry; else customer A's
 * outcome when their role covers what the row `needs` (or it needs nothing), else `refused` (403).
 */
export function memberExpected(row: AuthorizationRow, member: Member): Expected {
  const own = row.members?.[member];
  if (own !== undefined) return own;
  const covered = !row.needs || row.needs === "any" || roleCovers(MEMBER_ROLES[member], row.needs);
  return covered ? row.expect.customerA : (row.refused ?? 403);
}

/** A member of a client: an account of their own and a membership that has been taken up. */
async function memberOf(clientId: string, member: Member) {
  const user = await createUser({ email: uniqueEmail(member), name: `Member ${member}`, role: "user" }, db, clientId);
  await db.insert(schema.clientMembers).values({ userId: user.id, clientId, role: MEMBER_ROLES[member], joinedAt: new Date() });
  return user;
}

/**
 * The table's fixtures, made afresh into `fixtures`: the accounts every row names (customer A's
 * client has a colleague of each role), and the ids each rows file makes (a row may use ids another
 * file made).
 */
export async function makeTableFixtures(rowFiles: Record<string, RowsModule>, fixtures: Fixtures): Promise<void> {
  const customerA = await createTestUser({ role: "user", name: "Customer A" });
  const base = {
    customerA,
    customerB: await createTestUser({ role: "user", name: "Customer B" }),
    team: await createTestUser({ role: "team", name: "Team Member" }),
    ownerA2: await memberOf(customerA.id, "ownerA2"),
    approverA: await memberOf(customerA.id, "approverA"),
    memberA: await memberOf(customerA.id, "memberA"),
    billingA: await memberOf(customerA.id, "billingA"),
  };
  const ids: Record<string, string> = {};
  for (const file of Object.values(rowFiles)) Object.assign(ids, await file.fixtures?.(base));
  Object.assign(fixtures, base, { ids });
}

/**
 * The URL segments of a flat-routes file name (`api+/services+/$id.ts` is `api/services/$id`): a `+`
 * folder's name prefixes its files (nested folders too) and its `_layout` is the folder's own route; pathless (`_x`) and
 * index segments are dropped, a trailing `_` too, and an escape (`openapi[.]json`) is plain text.
 */
export function routeSegments(file: string): string[] {
  return file
    .replace(/\/route\.tsx?$/, "")
    .replace(/\.tsx?$/, "")
    .replace(/\+\/_layout$/, "")
    .replace(/\+\//g, ".")
    .split(/\.(?![^[]*\])/)
    .filter((segment) => segment !== "_index" && !segment.startsWith("_"))
    .map((segment) => segment.replace(/_$/, "").replace(/[[\]]/g, ""));
}

/** The URL pattern of a flat-routes file name, with named groups for its params. */
export function routePattern(file: string): RegExp {
  const parts = routeSegments(file).map((segment) =>
    segment === "$" ? "(?<splat>.*)" : segment.startsWith("$") ? `(?<${segment.slice(1)}>[^/]+)` : segment.replace(/[-/\\^$*+?.()|{}]/g, "\\$&"),
  );
  return new RegExp(`^/${parts.join("/")}$`);
}

/** The params Remix gives a route file's handlers for this pathname (decoded), or null when it does not match. */
export function paramsFor(file: string, pathname: string): Record<string, string> | null {
  const match = routePattern(file).exec(pathname);
  if (!match) return null;
  return Object.fromEntries(Object.entries(match.groups ?? {}).map(([key, value]) => [key === "splat" ? "*" : key, decodeURIComponent(value ?? "")]));
}

/** The request a row makes for one call: its path, body and the caller's credentials. */
export async function rowRequest(row: AuthorizationRow, fixtures: Fixtures, call: Call): Promise<Request> {
  const target = typeof row.path === "function" ? await row.path(fixtures, call) : row.path;
  const body = typeof row.body === "function" ? await row.body(fixtures, call) : row.body;
  const headers = new Headers(row.headers);
  if (call.user) for (const [name, value] of Object.entries(await credentialHeaders(call.user.id, call.transport, row.method))) headers.set(name, value);
  let payload: BodyInit | undefined;
  if (body && "json" in body) {
    headers.set("Content-Type", "application/json");
    payload = JSON.stringify(body.json);
  } else if (body && "form" in body) {
    payload = new URLSearchParams(body.form);
  } else if (body && "multipart" in body) {
    payload = body.multipart();
  }
  return new Request(`${BASE_URL}${target}`, { method: row.method, headers, body: payload });
}

/** The chat's message form as a browser sends it without JavaScript: multipart, no file chosen. */
export const messageForm = {
  multipart: () => {
    const form = new FormData();
    form.append("message", "A question from the form");
    form.append("file", new Blob([]), "");
    return form;
  },
};
