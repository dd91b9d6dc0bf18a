import crypto from "node:crypto";

import { bearerFor, sessionCookieFor } from "../../factories";
import { uniqueEmail as makeUniqueEmail } from "../../requests";
import type { Actor, Expected, Transport } from "./types";

/** Accounts, sessions and request context for authorization and auth tests. */

export const BASE_URL = "http://localhost";

export const uniqueEmail = (prefix = "user") => makeUniqueEmail(prefix, "authz.test");
export { bearerFor, createTestUser, sessionCookieFor } from "../../factories";

/** Fresh credentials over one transport: a browser's cookie (with its Origin) or a bearer token. */
export async function credentialHeaders(userId: string, transport: Transport, method = "GET"): Promise<Record<string, string>> {
  if (transport === "bearer") return { Authorization: `Bearer ${await bearerFor(userId)}` };
  return { Cookie: await sessionCookieFor(userId), ...(method === "GET" ? {} : { Origin: BASE_URL }) };
}

let ipCounter = 0;
/** A distinct client address per call, so the sign-in and forgot-password limits never mix calls. */
export function nextIp() {
  ipCounter += 1;
  return `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
}

export function loadContext(clientIp = nextIp()) {
  return { requestId: `test-${crypto.randomUUID()}`, cspNonce: "", clientIp };
}

/** Shorthands for a row's `expect`. */
export function everyone(outcome: Expected): Record<Actor, Expected> {
  return { anonymous: outcome, customerA: outcome, customerB: outcome, team: outcome };
}

export function byRole(outcomes: { anonymous: Expected; customer: Expected; team: Expected }): Record<Actor, Expected> {
  return { anonymous: outcomes.anonymous, customerA: outcomes.customer, customerB: outcomes.customer, team: outcomes.team };
}
