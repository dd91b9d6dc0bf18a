import type { IncomingHttpHeaders } from "node:http";
import type { RequestHandler } from "express";

/*
 * Responses that depend on who is signed in must never be stored by a shared cache or shown again
 * by the back button after logout: the dashboard's HTML and its `.data` requests, every /api answer,
 * report files, and any page rendered for a request that carries a session. Public pages and the
 * hashed assets (served before this runs) keep their own caching.
 */

export const PRIVATE_CACHE_CONTROL = "private, no-store";
/** The name of the session cookie (sessionCookie in ~/web/auth.server; a test keeps them equal). */
export const SESSION_COOKIE_NAME = "__session";

const PRIVATE_PREFIXES = ["/api/", "/dashboard", "/files/"];
const sessionCookie = new RegExp(`(?:^|;)\\s*${SESSION_COOKIE_NAME}=`);

export function dependsOnIdentity(pathname: string, headers: IncomingHttpHeaders): boolean {
  if (pathname === "/api" || PRIVATE_PREFIXES.some((prefix) => pathname.startsWith(prefix))) return true;
  return headers.authorization !== undefined || carriesSession(headers);
}

/** Whether the request carries the session cookie (signed in or not: the cookie is what a forger rides on). */
export function carriesSession(headers: IncomingHttpHeaders): boolean {
  return sessionCookie.test(headers.cookie ?? "");
}

/** Express middleware in front of the Remix handler: sets the header as the response starts, whatever the route set. */
export const privateCache: RequestHandler = (req, res, next) => {
  if (dependsOnIdentity(req.path, req.headers)) {
    const writeHead = res.writeHead;
    res.writeHead = function (this: typeof res, ...args: Parameters<typeof writeHead>) {
      this.setHeader("Cache-Control", PRIVATE_CACHE_CONTROL);
      return writeHead.apply(this, args);
    } as typeof writeHead;
  }
  next();
};
