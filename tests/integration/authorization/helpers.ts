import { bearerFor, sessionCookieFor } from "../../support/factories";
import { BASE_URL, uniqueEmail as makeUniqueEmail } from "../../support/requests";
import type { Actor, Expected, Transport } from "./types";

/** Accounts, sessions and request context for authorization and auth tests. */

export { BASE_URL, loadContext, nextIp } from "../../support/requests";

export const uniqueEmail = (prefix = "user") => makeUniqueEmail(prefix, "authz.test");
export { bearerFor, createTestUser, sessionCookieFor } from "../../support/factories";

/** Fresh credentials over one transport: a browser's cookie (with its Origin) or a bearer token. */
export async function credentialHeaders(userId: string, transport: Transport, method = "GET"): Promise<Record<string, string>> {
  if (transport === "bearer") return { Authorization: `Bearer ${await bearerFor(userId)}` };
  return { Cookie: await sessionCookieFor(userId), ...(method === "GET" ? {} : { Origin: BASE_URL }) };
}

/** Shorthands for a row's `expect`. */
export function everyone(outcome: Expected): Record<Actor, Expected> {
  return { anonymous: outcome, customerA: outcome, customerB: outcome, team: outcome };
}

export function byRole(outcomes: { anonymous: Expected; customer: Expected; team: Expected }): Record<Actor, Expected> {
  return { anonymous: outcomes.anonymous, customerA: outcomes.customer, customerB: outcomes.customer, team: outcomes.team };
}
