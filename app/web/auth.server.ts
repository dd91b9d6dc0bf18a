import { createCookie, redirect } from "@remix-run/node";

import { API_KEY_PREFIX, type Scope } from "~/domain/api-keys";
import { can } from "~/domain/permissions";
import { sitePath } from "~/domain/redirect";
import { touchSession } from "~/models/account.server";
import { findApiKey, touchApiKey } from "~/models/api-keys.server";
import { findSession, revokeSession, type SessionUser } from "~/models/sessions.server";
import { env, sessionSecrets } from "~/utils/env.server";
import { oncePerRequest } from "~/utils/request-context.server";

/** The cookie holds only the session secret; the session itself lives in the database. */
export const sessionCookie = createCookie("__session", {
  httpOnly: true,
  sameSite: "lax",
  secure: env.secureCookies,
  path: "/",
  secrets: sessionSecrets(env),
  maxAge: 30 * 24 * 3600,
});

export type { SessionUser };
export interface Identity {
  user: SessionUser;
  via: "cookie" | "bearer";
  token: string;
  sessionId: string;
  /**
   * TEAM_2FA=required and this staff account has neither an authenticator nor a passkey: it may
   * only set one up (the security page and its API calls) and sign out, on every transport.
   */
  setupOnly: boolean;
  /** When the session was last recorded as used (its start until then). */
  seenAt: Date;
  /** Set when the bearer is an API key (decision 284): `sessionId` is then the key's id, and only its scopes are open. */
  apiKey?: { id: string; scopes: Scope[] };
}

/** Where a setup-only account is sent, and the only pages (besides signing out) it may open. */
export const TWO_FACTOR_SETUP_PATH = "/dashboard/security";
const SETUP_ONLY_PATHS = new Set([TWO_FACTOR_SETUP_PATH, "/logout"]);
export const TWO_FACTOR_REQUIRED_MESSAGE = "Your team requires two-factor sign-in: set up an authenticator app or a passkey first.";

export function bearerToken(request: Request): string | null {
  const header = request.headers.get("Authorization");
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match ? match[1] : null;
}

export async function cookieToken(cookieHeader: string | null): Promise<string | null> {
  const value: unknown = await sessionCookie.parse(cookieHeader);
  return typeof value === "string" && value.length > 0 ? value : null;
}

/** Who is asking: a bearer token wins over the session cookie. Read once per request. API keys count on /api only (pages treat them as signed out). */
export function getIdentity(request: Request): Promise<Identity | null> {
  return oncePerRequest(request, "identity", () => {
    const bearer = request.headers.get("Authorization") ? bearerToken(request) : null;
    const apiKeys = !!bearer?.startsWith(API_KEY_PREFIX) && new URL(request.url).pathname.startsWith("/api/");
    return resolveIdentity(bearer, request.headers.get("Cookie"), { apiKeys }).then((identity) => {
      // The account page's session list: device and last use (at most one write a minute per session); a key's last use likewise.
      if (identity?.apiKey) touchApiKey(identity.apiKey.id, identity.seenAt);
      else if (identity) touchSession(identity.sessionId, request.headers.get("User-Agent"), identity.seenAt);
      return identity;
    });
  });
}

/**
 * Shared with the Socket.IO handshake, which has a token and a cookie header but no Request. An API
 * key (a bearer starting with `blk_`) resolves only when `apiKeys` is set: sockets never take one.
 */
export async function resolveIdentity(bearer: string | null, cookieHeader: string | null, options: { apiKeys?: boolean } = {}): Promise<Identity | null> {
  const via = bearer ? "bearer" : "cookie";
  const token = bearer ?? (await cookieToken(cookieHeader));
  if (!token) return null;
  if (bearer?.startsWith(API_KEY_PREFIX)) {
    const key = options.apiKeys ? await findApiKey(bearer) : null;
    if (!key) return null;
    const setupOnly = env.teamTwoFactor === "required" && can(key.user, "area:team") && !key.hasTwoFactorMethod;
    return { user: key.user, via, token, sessionId: key.keyId, setupOnly, seenAt: key.seenAt, apiKey: { id: key.keyId, scopes: key.scopes } };
  }
  const found = await findSession(token, via);
  if (!found) return null;
  const setupOnly = env.teamTwoFactor === "required" && can(found.user, "area:team") && !found.hasTwoFactorMethod;
  return { user: found.user, via, token, sessionId: found.sessionId, setupOnly, seenAt: found.seenAt };
}

/** The signed-in user on a page anyone may open; an account held to its second-factor set-up counts as signed out there. */
export async function getOptionalUser(request: Request) {
  const identity = await getIdentity(request);
  return identity && !identity.setupOnly ? identity.user : null;
}

/** A redirect target after sign-in: a path of this site (parsed against APP_URL), else `fallback`. */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/dashboard") {
  return sitePath(to, env.appUrl) ?? fallback;
}

function loginRedirect(request: Request) {
  const url = new URL(request.url);
  const redirectTo = url.pathname + url.search;
  return redirect(`/login?${new URLSearchParams({ redirectTo })}`);
}

/**
 * Browser guard: a signed-out visitor goes to /login?redirectTo=…; a staff account that must still
 * set up its second factor goes to the security page from anywhere else (documents and `.data`).
 */
export async function requireUser(request: Request): Promise<SessionUser> {
  return (await requireIdentity(request)).user;
}

/** requireUser, with the session behind it. */
export async function requireIdentity(request: Request): Promise<Identity> {
  const identity = await getIdentity(request);
  if (!identity) throw loginRedirect(request);
  if (identity.setupOnly && !SETUP_ONLY_PATHS.has(new URL(request.url).pathname.replace(/\/$/, ""))) throw redirect(TWO_FACTOR_SETUP_PATH);
  return identity;
}

/** Browser guard for staff pages: signed-out → /login, customers → 403. */
export async function requireTeam(request: Request): Promise<SessionUser> {
  const user = await requireUser(request);
  if (!can(user, "area:team")) throw new Response("Not allowed", { status: 403 });
  return user;
}

export async function sessionCookieHeader(token: string, expires: Date) {
  return sessionCookie.serialize(token, { expires });
}

/** Ends the current session or token server-side; returns the Set-Cookie that clears the cookie. */
export async function endSession(request: Request) {
  const identity = await getIdentity(request);
  if (identity) await revokeSession(identity.token);
  return sessionCookie.serialize("", { maxAge: 0 });
}
