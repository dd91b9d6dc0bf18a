import { unsubscribeToken } from "~/utils/unsubscribe-links.server";

import { byRole, everyone } from "./helpers";
import type { AuthorizationRow } from "./types";

/**
 * Notifications (docs/decisions/289-291): every signed-in person reads and marks their own and sets
 * their own e-mail choices; the one-click unsubscribe link works for whoever holds it, signed in or not.
 */

export const needs = "any";

const login = { status: 302, location: "/login?redirectTo=" };
const signedIn = (outcome: number | { status: number; location?: string }) => byRole({ anonymous: 401, customer: outcome, team: outcome });
const signedInPage = (outcome: number | { status: number; location?: string }) => byRole({ anonymous: login, customer: outcome, team: outcome });
const settingsForm = {
  timeZone: "Europe/Paris",
  message: "instant",
  post_review: "instant",
  post_overdue: "instant",
  post_decided: "daily",
  brief_needed: "instant",
  report_ready: "instant",
  billing: "instant",
  order: "off",
};

export const rows: AuthorizationRow[] = [
  { route: "api+/notifications+/_layout.ts", method: "GET", path: "/api/notifications", expect: signedIn(200) },
  { route: "api+/notifications+/_layout.ts", method: "GET", path: "/api/notifications?before=yesterday", note: "a bad cursor", expect: signedIn(400) },
  { route: "api+/notifications+/read.ts", method: "GET", path: "/api/notifications/read", expect: everyone(405) },
  { route: "api+/notifications+/read.ts", method: "POST", path: "/api/notifications/read", body: { json: { all: true } }, expect: signedIn(200) },
  { route: "api+/notifications+/read.ts", method: "POST", path: "/api/notifications/read", note: "nothing named", body: { json: {} }, expect: signedIn(400) },
  { route: "api+/account+/notifications.ts", method: "GET", path: "/api/account/notifications", expect: signedIn(200) },
  {
    route: "api+/account+/notifications.ts",
    method: "PUT",
    path: "/api/account/notifications",
    body: { json: { email: { order: "daily" } } },
    expect: signedIn(200),
  },
  {
    route: "api+/account+/notifications.ts",
    method: "PUT",
    path: "/api/account/notifications",
    note: "an unknown choice",
    body: { json: { email: { order: "weekly" } } },
    expect: signedIn(400),
  },
  { route: "dashboard+/notifications.tsx", method: "GET", path: "/dashboard/notifications", expect: signedInPage(200) },
  {
    route: "dashboard+/notifications.tsx",
    method: "POST",
    path: "/dashboard/notifications",
    note: "mark all read",
    body: { form: { all: "1" } },
    expect: signedInPage({ status: 302, location: "/dashboard/notifications" }),
  },
  { route: "dashboard+/notifications_.settings.tsx", method: "GET", path: "/dashboard/notifications/settings", expect: signedInPage(200) },
  {
    route: "dashboard+/notifications_.settings.tsx",
    method: "POST",
    path: "/dashboard/notifications/settings",
    body: { form: settingsForm },
    expect: signedInPage({ status: 302, location: "/dashboard/notifications/settings" }),
  },
  {
    route: "dashboard+/notifications_.settings.tsx",
    method: "POST",
    path: "/dashboard/notifications/settings",
    note: "an unknown time zone",
    body: { form: { ...settingsForm, timeZone: "Mars/Olympus_Mons" } },
    expect: signedInPage(400),
  },
  { route: "unsubscribe.$token.tsx", method: "GET", path: "/unsubscribe/not-a-token", expect: everyone(404) },
  {
    route: "unsubscribe.$token.tsx",
    method: "POST",
    path: "/unsubscribe/not-a-token",
    body: { form: { "List-Unsubscribe": "One-Click" } },
    expect: everyone(404),
  },
  {
    route: "unsubscribe.$token.tsx",
    method: "POST",
    path: (f) => `/unsubscribe/${unsubscribeToken(f.customerB.id, "order")}`,
    note: "customer B's link, whoever holds it",
    body: { form: { "List-Unsubscribe": "One-Click" } },
    expect: everyone(200),
  },
];
