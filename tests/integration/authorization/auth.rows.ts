import { byRole, everyone, uniqueEmail } from "./helpers";
import type { AuthorizationRow } from "./types";

/** Accounts (decision 020) and the platform's own routes (healthz, the /api catch-all). */

const signedInGoesToDashboard = byRole({ anonymous: 200, customer: { status: 302, location: "/dashboard" }, team: { status: 302, location: "/dashboard" } });
const home = { status: 302, location: "/" };
const madeUpToken = "made-up-token-that-was-never-issued";

/** Every member of a client signs in and out, whatever their role. */
export const needs = "any";

export const rows: AuthorizationRow[] = [
  { route: "_auth+/login.tsx", method: "GET", path: "/login", expect: signedInGoesToDashboard },
  {
    route: "_auth+/login.tsx",
    method: "POST",
    path: "/login",
    note: "wrong credentials",
    body: () => ({ form: { email: uniqueEmail("nobody"), password: "not-the-password" } }),
    expect: everyone(401),
  },
  { route: "_auth+/forgot-password.tsx", method: "GET", path: "/forgot-password", expect: everyone(200) },
  {
    route: "_auth+/forgot-password.tsx",
    method: "POST",
    path: "/forgot-password",
    body: () => ({ form: { email: uniqueEmail("forgot") } }),
    expect: everyone(200),
  },
  {
    route: "_auth+/reset-password.tsx",
    method: "GET",
    path: "/reset-password",
    note: "no token",
    expect: everyone({ status: 302, location: "/forgot-password" }),
  },
  { route: "_auth+/reset-password.tsx", method: "GET", path: `/reset-password?token=${madeUpToken}`, expect: everyone(200) },
  {
    route: "_auth+/reset-password.tsx",
    method: "POST",
    path: `/reset-password?token=${madeUpToken}`,
    body: { form: { token: madeUpToken, password: "a-new-password", confirmPassword: "a-new-password" } },
    expect: everyone(400),
  },
  { route: "_auth+/logout.tsx", method: "GET", path: "/logout", expect: everyone(home) },
  { route: "_auth+/logout.tsx", method: "POST", path: "/logout", expect: everyone(home) },

  { route: "api+/auth+/login.ts", method: "GET", path: "/api/auth/login", expect: everyone(405) },
  {
    route: "api+/auth+/login.ts",
    method: "POST",
    path: "/api/auth/login",
    note: "wrong credentials",
    body: () => ({ json: { email: uniqueEmail("nobody"), password: "not-the-password" } }),
    expect: everyone(401),
  },
  { route: "api+/auth+/logout.ts", method: "GET", path: "/api/auth/logout", expect: everyone(405) },
  { route: "api+/auth+/logout.ts", method: "POST", path: "/api/auth/logout", expect: byRole({ anonymous: 401, customer: 200, team: 200 }) },
  { route: "api+/auth+/forgot-password.ts", method: "GET", path: "/api/auth/forgot-password", expect: everyone(405) },
  {
    route: "api+/auth+/forgot-password.ts",
    method: "POST",
    path: "/api/auth/forgot-password",
    body: () => ({ json: { email: uniqueEmail("forgot") } }),
    expect: everyone(200),
  },
  { route: "api+/auth+/reset-password.ts", method: "GET", path: "/api/auth/reset-password", expect: everyone(405) },
  {
    route: "api+/auth+/reset-password.ts",
    method: "POST",
    path: "/api/auth/reset-password",
    body: { json: { token: madeUpToken, password: "a-new-password" } },
    expect: everyone(400),
  },

  { route: "healthz.ts", method: "GET", path: "/healthz", expect: everyone(200) },
  { route: "api+/$.ts", method: "GET", path: "/api/no-such-endpoint", expect: everyone(404) },
  { route: "api+/$.ts", method: "POST", path: "/api/no-such-endpoint", expect: everyone(404) },
];
