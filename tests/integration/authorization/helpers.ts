import crypto from "node:crypto";
import { createSession } from "~/models/sessions.server";
import { createUser, type User } from "~/models/users.server";
import { sessionCookieHeader } from "~/utils/auth.server";
import type { Actor, Expected, Transport } from "./types";

/** Accounts, sessions and request context for authorization and auth tests. */

export const BASE_URL = "http://localhost";

export function uniqueEmail(prefix = "user") {
  return `${prefix}-${crypto.randomBytes(5).toString("hex")}@authz.test`;
}

export function createTestUser(options: { role?: "user" | "team"; email?: string; name?: string; password?: string } = {}): Promise<User> {
  return createUser({
    email: options.email ?? uniqueEmail(options.role ?? "user"),
    name: options.name ?? (options.role === "team" ? "Team Member" : "Customer Person"),
    role: options.role ?? "user",
    password: options.password,
  });
}

/** The `Cookie` header value a browser would send for a fresh session of this user. */
export async function sessionCookieFor(userId: string) {
  const session = await createSession(userId, "cookie");
  return (await sessionCookieHeader(session.token, session.expiresAt)).split(";")[0];
}

export async function bearerFor(userId: string) {
  return (await createSession(userId, "bearer")).token;
}

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
