import { byRole, everyone, uniqueEmail } from "./helpers";
import type { AuthorizationRow } from "./types";

/**
 * Account security (decisions 230–235): two-factor set-up and sign-in, the security page. No row turns
 * two-factor on for the shared accounts (a wrong code never does), so other rows' sign-ins stay as they are.
 */

const login = { status: 302, location: "/login?redirectTo=" };
const signedIn = (outcome: number | { status: number; location?: string }) => byRole({ anonymous: 401, customer: outcome, team: outcome });

const NO_SUCH_ID = "00000000-0000-4000-8000-000000000000";
const fakeCredential = {
  id: "AAAA",
  rawId: "AAAA",
  type: "public-key",
  response: {
    clientDataJSON: Buffer.from(JSON.stringify({ type: "webauthn.get", challenge: "never-issued", origin: "http://localhost" })).toString("base64url"),
  },
  clientExtensionResults: {},
};

/** Every member of a client, whatever their role, has their own security. */
export const needs = "any";

export const rows: AuthorizationRow[] = [
  { route: "api+/auth+/2fa.ts", method: "GET", path: "/api/auth/2fa", expect: everyone(405) },
  {
    route: "api+/auth+/2fa.ts",
    method: "POST",
    path: "/api/auth/2fa",
    note: "a challenge never issued",
    body: { json: { challenge: "made-up-challenge", code: "123456" } },
    expect: everyone(400),
  },
  { route: "api+/account+/2fa.ts", method: "GET", path: "/api/account/2fa", expect: everyone(405) },
  { route: "api+/account+/2fa.ts", method: "POST", path: "/api/account/2fa", note: "start set-up", expect: signedIn(200) },
  {
    route: "api+/account+/2fa.ts",
    method: "DELETE",
    path: "/api/account/2fa",
    note: "not on",
    body: { json: { code: "123456" } },
    expect: signedIn(409),
  },
  { route: "api+/account+/2fa.verify.ts", method: "GET", path: "/api/account/2fa/verify", expect: everyone(405) },
  {
    route: "api+/account+/2fa.verify.ts",
    method: "POST",
    path: "/api/account/2fa/verify",
    note: "a wrong code",
    body: { json: { code: "000000" } },
    expect: signedIn(400),
  },
  // Passkeys: the shared accounts never get one (an answer to no challenge is refused first).
  { route: "api+/account+/passkeys.ts", method: "GET", path: "/api/account/passkeys", expect: signedIn(200) },
  {
    route: "api+/account+/passkeys.ts",
    method: "POST",
    path: "/api/account/passkeys",
    note: "an answer to no challenge",
    body: { json: { credential: fakeCredential } },
    expect: signedIn(400),
  },
  { route: "api+/account+/passkeys.options.ts", method: "GET", path: "/api/account/passkeys/options", expect: everyone(405) },
  // The table's accounts have no password and a session made for the call: a sign-in that recent is their proof (decision 258).
  {
    route: "api+/account+/passkeys.options.ts",
    method: "POST",
    path: "/api/account/passkeys/options",
    note: "no password, signed in just now",
    expect: signedIn(200),
  },
  { route: "api+/account+/passkeys.$id.ts", method: "GET", path: `/api/account/passkeys/${NO_SUCH_ID}`, expect: everyone(405) },
  {
    route: "api+/account+/passkeys.$id.ts",
    method: "PATCH",
    path: `/api/account/passkeys/${NO_SUCH_ID}`,
    note: "rename a passkey that is not there (or another's)",
    body: { json: { name: "Mine" } },
    expect: signedIn(404),
  },
  { route: "api+/account+/passkeys.$id.ts", method: "DELETE", path: `/api/account/passkeys/${NO_SUCH_ID}`, expect: signedIn(404) },
  { route: "api+/auth+/passkey.options.ts", method: "GET", path: "/api/auth/passkey/options", expect: everyone(405) },
  { route: "api+/auth+/passkey.options.ts", method: "POST", path: "/api/auth/passkey/options", expect: everyone(200) },
  {
    route: "api+/auth+/passkey.options.ts",
    method: "POST",
    path: "/api/auth/passkey/options",
    note: "for a second step never issued",
    body: { json: { challenge: "made-up-challenge" } },
    expect: everyone(400),
  },
  { route: "api+/auth+/passkey.ts", method: "GET", path: "/api/auth/passkey", expect: everyone(405) },
  {
    route: "api+/auth+/passkey.ts",
    method: "POST",
    path: "/api/auth/passkey",
    note: "an answer to no challenge",
    body: { json: { credential: fakeCredential } },
    expect: everyone(400),
  },
  {
    route: "dashboard+/security.tsx",
    method: "POST",
    path: "/dashboard/security",
    note: "rename a passkey that is not there",
    body: { form: { intent: "rename-passkey", passkeyId: NO_SUCH_ID, name: "Mine" } },
    expect: byRole({ anonymous: login, customer: 404, team: 404 }),
  },
  {
    route: "dashboard+/security.tsx",
    method: "POST",
    path: "/dashboard/security",
    note: "remove a passkey that is not there",
    body: { form: { intent: "remove-passkey", passkeyId: NO_SUCH_ID } },
    expect: byRole({ anonymous: login, customer: 404, team: 404 }),
  },
  { route: "dashboard+/security.tsx", method: "GET", path: "/dashboard/security", expect: byRole({ anonymous: login, customer: 200, team: 200 }) },
  {
    route: "dashboard+/security.tsx",
    method: "POST",
    path: "/dashboard/security",
    note: "start set-up",
    body: { form: { intent: "start-2fa" } },
    expect: byRole({ anonymous: login, customer: { status: 302, location: "/dashboard/security" }, team: { status: 302, location: "/dashboard/security" } }),
  },
];

rows.push(
  { route: "api+/auth+/magic-link.ts", method: "GET", path: "/api/auth/magic-link", expect: everyone(405) },
  {
    route: "api+/auth+/magic-link.ts",
    method: "POST",
    path: "/api/auth/magic-link",
    body: () => ({ json: { email: uniqueEmail("magic") } }),
    expect: everyone(200),
  },
  { route: "_auth+/login_.magic.tsx", method: "GET", path: "/login/magic", note: "no token", expect: everyone({ status: 302, location: "/login" }) },
  { route: "_auth+/login_.magic.tsx", method: "GET", path: "/login/magic?token=made-up-token", expect: everyone(200) },
  { route: "_auth+/login_.magic.tsx", method: "POST", path: "/login/magic", body: { form: { token: "made-up-token" } }, expect: everyone(400) },
);
