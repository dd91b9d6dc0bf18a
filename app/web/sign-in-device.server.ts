import crypto from "node:crypto";
import { createCookie } from "@remix-run/node";

import { noteSignInDevice } from "~/models/sign-in-devices.server";
import { env, sessionSecrets } from "~/utils/env.server";

/*
 * Which browser signs in (decision 233): a signed cookie holding a random id, set on the first
 * sign-in and kept for 400 days (the longest a browser keeps a cookie). It outlives sign-outs and
 * is shared by the accounts signing in on that browser; the database keeps each account's
 * devices by the id's hash.
 */

const deviceCookie = createCookie("__device", {
  httpOnly: true,
  sameSite: "lax",
  secure: env.secureCookies,
  path: "/",
  secrets: sessionSecrets(env),
  maxAge: 400 * 24 * 3600,
});

const DEVICE_ID = /^[\w-]{22,64}$/;

/**
 * A browser sign-in is complete: the device is noted (and the account e-mailed when it is new to
 * it, unless `quiet`); answers the Set-Cookie that keeps (and renews) the device cookie.
 */
export async function noteBrowserSignIn(request: Request, userId: string, ip: string, options: { quiet?: boolean } = {}): Promise<string> {
  const value: unknown = await deviceCookie.parse(request.headers.get("Cookie"));
  const browserId = typeof value === "string" && DEVICE_ID.test(value) ? value : crypto.randomBytes(24).toString("base64url");
  noteSignInDevice({ userId, transport: "cookie", browserId, userAgent: request.headers.get("User-Agent"), ip }, options);
  return deviceCookie.serialize(browserId);
}

/** An API sign-in is complete (a bearer token): the client is known by its user agent and address. */
export function noteApiSignIn(request: Request, userId: string, ip: string) {
  noteSignInDevice({ userId, transport: "bearer", userAgent: request.headers.get("User-Agent"), ip });
}
