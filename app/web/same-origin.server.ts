import type { IncomingHttpHeaders } from "node:http";
import type { RequestHandler } from "express";

import { env } from "~/utils/env.server";
import { errorBody, isApiPath } from "~/utils/http.server";

import { carriesSession } from "./private-cache.server";

/*
 * The one forgery check, in front of the Remix handler for every request (pages, `.data`, /api).
 * SameSite=Lax stops other sites, not a page on another port or subdomain of the same site, so a
 * state change (anything but GET/HEAD/OPTIONS) that carries the session cookie, and any page post,
 * must come from APP_URL's origin: its `Origin` header, or without one its `Sec-Fetch-Site`. A
 * request with neither is not a browser's (a browser sends at least one on every POST) and holds
 * the cookie itself. Bearer-token API calls without the cookie cannot be forged and go on.
 * Legacy `?_data` requests (Remix's pre-single-fetch data path) are refused outright.
 * docs/decisions/120-one-forgery-check.md
 */

export const CROSS_SITE = { status: 403, code: "BAD_ORIGIN", message: "Cross-site request refused." } as const;
export const LEGACY_DATA = {
  status: 400,
  code: "LEGACY_DATA_REQUEST",
  message: "`?_data` requests are not served: this app loads data through single fetch (`.data` URLs).",
} as const;

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
const APP_ORIGIN = new URL(env.appUrl).origin;

export interface RequestFacts {
  method: string;
  /** The path with its query, as on the request line. */
  url: string;
  headers: IncomingHttpHeaders;
}

/** Why this request is refused (the answer's status, code and message), or null when it goes on. */
export function forgeryRefusal(request: RequestFacts, appOrigin = APP_ORIGIN): typeof CROSS_SITE | typeof LEGACY_DATA | null {
  // The raw request line, not a URL parsed against a base: nothing here can throw.
  const queryAt = request.url.indexOf("?");
  const pathname = queryAt === -1 ? request.url : request.url.slice(0, queryAt);
  if (queryAt !== -1 && new URLSearchParams(request.url.slice(queryAt + 1)).has("_data")) return LEGACY_DATA;
  if (SAFE_METHODS.has(request.method.toUpperCase())) return null;
  if (isApiPath(pathname) && !carriesSession(request.headers)) return null;
  return fromOurPages(request.headers, appOrigin) && originNamesThisHost(request.headers) ? null : CROSS_SITE;
}

/**
 * Remix refuses an action whose `Origin` names another host than the request's own (its first
 * `X-Forwarded-Host`, else `Host`) by throwing, which would answer 500: the same rule answers 403
 * here, before Remix (a client can send any Host).
 */
function originNamesThisHost(headers: IncomingHttpHeaders): boolean {
  const origin = headers.origin;
  if (origin === undefined) return true;
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    return false;
  }
  const forwarded = (Array.isArray(headers["x-forwarded-host"]) ? headers["x-forwarded-host"][0] : headers["x-forwarded-host"])?.split(",")[0]?.trim();
  const host = forwarded || headers.host;
  return !!host && originHost === host;
}

/**
 * Whether a browser says the request comes from APP_URL's pages: its `Origin`, or without one its
 * `Sec-Fetch-Site`; a request with neither is not a browser's. Also the socket handshake's rule.
 */
export function fromOurPages(headers: IncomingHttpHeaders, appOrigin = APP_ORIGIN): boolean {
  const origin = headers.origin;
  if (origin !== undefined) return origin === appOrigin;
  const site = headers["sec-fetch-site"];
  return site === undefined || site === "same-origin" || site === "none";
}

/** Express middleware ahead of Remix (server.ts): refused requests get the JSON error shape. */
export const forgeryGuard: RequestHandler = (req, res, next) => {
  const refusal = forgeryRefusal({ method: req.method, url: req.originalUrl, headers: req.headers });
  if (!refusal) return next();
  // The body (if any) is not read: close the connection rather than drain an unknown upload.
  if (!SAFE_METHODS.has(req.method)) res.setHeader("Connection", "close");
  res
    .status(refusal.status)
    .set("Cache-Control", "no-store")
    .json(errorBody(refusal.message, refusal.code, res.locals.requestId as string | undefined));
};
