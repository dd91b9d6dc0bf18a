import type { ActionFunction, LoaderFunction } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { env } from "~/utils/env.server";

import { createTestUser, loadContext, makeTableFixtures, paramsFor, rowRequest } from "./authorization/helpers";
import type { AuthorizationRow, Call, Fixtures, RowsModule, Transport } from "./authorization/types";

/*
 * TEAM_2FA=required: a staff account without an authenticator or a passkey may only set one up and
 * sign out. Every row of the authorization table is replayed as such an account, over both
 * transports: it gets no more than a signed-out visitor (a 401, 403, 404 or 405, the way to the
 * security page or to sign-in, or what the row gives anyone), except on the set-up routes themselves.
 */

interface RouteModule {
  loader?: LoaderFunction & { api?: { duringSetup?: boolean }[] };
  action?: ActionFunction & { api?: { duringSetup?: boolean }[] };
}

const rowFiles = import.meta.glob<RowsModule>("./authorization/*.rows.ts", { eager: true });
const routeModules = import.meta.glob<RouteModule>(["/app/routes/*.{ts,tsx}", "/app/routes/*+/**/*.{ts,tsx}", "!/app/routes/**/*.test.{ts,tsx}"]);
const rows: AuthorizationRow[] = Object.values(rowFiles).flatMap((file) => file.rows);
/** The pages a held account may open (app/web/auth.server.ts); the API's are marked `duringSetup`. */
const SETUP_PAGES = new Set(["dashboard+/security.tsx", "_auth+/logout.tsx"]);

const fixtures = {} as Fixtures;
let held: Fixtures["team"];
const before = env.teamTwoFactor;

beforeAll(async () => {
  await makeTableFixtures(rowFiles, fixtures);
  held = await createTestUser({ role: "team", name: "Held Staff" });
  env.teamTwoFactor = "required";
});
afterAll(() => {
  env.teamTwoFactor = before;
});

function statusOf(value: unknown): { status: number; location: string | null } {
  if (value instanceof Response) return { status: value.status, location: value.headers.get("Location") };
  const init =
    (value as { type?: string; init?: ResponseInit | null } | null)?.type === "DataWithResponseInit" ? (value as { init?: ResponseInit }).init : null;
  return { status: init?.status ?? 200, location: new Headers(init?.headers).get("Location") };
}

async function callAs(row: AuthorizationRow, transport: Transport): Promise<{ status: number; location: string | null; error?: string }> {
  const module = await routeModules[`/app/routes/${row.route}`]!();
  const call: Call = { actor: "team", transport, user: held };
  const request = await rowRequest(row, fixtures, call);
  const handler = row.method === "GET" ? module.loader : module.action;
  if (!handler) return { status: 405, location: null };
  try {
    const result: unknown = await handler({ request, params: paramsFor(row.route, new URL(request.url).pathname) ?? {}, context: loadContext() });
    if (result instanceof Response && result.body) await result.body.cancel();
    return statusOf(result);
  } catch (error) {
    if (error instanceof Response || (error as { type?: string } | null)?.type === "DataWithResponseInit") return statusOf(error);
    return { status: 500, location: null, error: error instanceof Error ? error.message : String(error) };
  }
}

const anonymousStatus = (row: AuthorizationRow) => {
  const expected = row.expect.anonymous;
  const outcome = typeof expected === "object" && "cookie" in expected ? expected.cookie : expected;
  return typeof outcome === "number" ? outcome : outcome.status;
};

describe("a staff account held to its second-factor set-up gets no more than a signed-out visitor", () => {
  test.each(rows.map((row) => [`${row.method} ${typeof row.path === "string" ? row.path : row.route}${row.note ? ` (${row.note})` : ""}`, row] as const))(
    "%s",
    async (_name, row) => {
      const module = await routeModules[`/app/routes/${row.route}`]!();
      const handler = row.method === "GET" ? module.loader : module.action;
      if (SETUP_PAGES.has(row.route) || handler?.api?.some((spec) => spec.duringSetup)) return;
      const problems: string[] = [];
      for (const transport of ["cookie", "bearer"] as const) {
        const got = await callAs(row, transport);
        const refused = [401, 403, 404, 405].includes(got.status);
        const sentAway = got.status >= 300 && got.status < 400 && /^\/(dashboard\/security|login)\b|^\/dashboard$/.test(got.location ?? "");
        if (!refused && !sentAway && got.status !== anonymousStatus(row))
          problems.push(`${transport}: ${got.status}${got.location ? ` → ${got.location}` : ""}${got.error ? ` (${got.error})` : ""}`);
      }
      expect(problems).toEqual([]);
    },
    30_000,
  );
});
