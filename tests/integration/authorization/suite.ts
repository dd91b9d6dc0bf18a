import fs from "node:fs";
import path from "node:path";
import type { ActionFunction, LoaderFunction } from "@remix-run/node";
import { beforeAll, describe, expect, test } from "vitest";

import { BASE_URL, loadContext, makeTableFixtures, memberExpected, paramsFor, routePattern, rowRequest } from "./helpers";
import {
  MEMBER_ROLES,
  type Actor,
  type AuthorizationRow,
  type Call,
  type Caller,
  type Expected,
  type Fixtures,
  type Member,
  type Outcome,
  type RowsModule,
  type Transport,
} from "./types";

/**
 * The authorization table: every route file × {anonymous, customer A, customer B, team, and a
 * colleague of customer A in each client role} × {cookie, bearer}. Rows come from
 * tests/integration/authorization/*.rows.ts, one file per area; a colleague's outcome follows from
 * what the row `needs` of their role. A route file without rows for each handler it exports fails
 * the first test, by name. The rows are run in shards (a file each, `authorizationSuite(n, of)`), so
 * the table spreads over the test workers; the first shard also checks the table itself.
 */

interface RouteModule {
  loader?: LoaderFunction;
  action?: ActionFunction;
  default?: unknown;
}

const ACTORS: Actor[] = ["anonymous", "customerA", "customerB", "team"];
const MEMBERS = Object.keys(MEMBER_ROLES) as Member[];
const CALLERS: Caller[] = [...ACTORS, ...MEMBERS];
const isMember = (caller: Caller): caller is Member => caller in MEMBER_ROLES;
const expectedOf = (row: AuthorizationRow, caller: Caller): Expected => (isMember(caller) ? memberExpected(row, caller) : row.expect[caller]);
const TRANSPORTS: Transport[] = ["cookie", "bearer"];
const ROUTES_DIR = path.resolve("app/routes");

const rowFiles = import.meta.glob<RowsModule>("./*.rows.ts", { eager: true });
const routeModules = import.meta.glob<RouteModule>([
  "/app/routes/*.{ts,tsx}",
  "/app/routes/*+/**/*.{ts,tsx}",
  "/app/routes/*/route.{ts,tsx}",
  "!/app/routes/**/*.test.{ts,tsx}",
]);
const rows: AuthorizationRow[] = Object.values(rowFiles).flatMap((file) =>
  file.rows.map((row) => (row.needs || !file.needs ? row : { ...row, needs: file.needs })),
);

/** Route files as remix-flat-routes sees them: `x.tsx`, `x/route.tsx` or every file of a `+` folder in app/routes, its nested `+` folders too (tests excluded). */
function routeFiles(): string[] {
  return fs
    .readdirSync(ROUTES_DIR, { withFileTypes: true })
    .flatMap((entry) => {
      const isRoute = (name: string) => /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name);
      if (entry.isFile()) return isRoute(entry.name) ? [entry.name] : [];
      if (entry.name.endsWith("+"))
        return fs
          .readdirSync(path.join(ROUTES_DIR, entry.name), { recursive: true, encoding: "utf8" })
          .map((name) => name.split(path.sep).join("/"))
          .filter(
            (name) =>
              isRoute(name) &&
              name
                .split("/")
                .slice(0, -1)
                .every((folder) => folder.endsWith("+")),
          )
          .map((name) => `${entry.name}/${name}`);
      const inner = ["route.tsx", "route.ts"].find((f) => fs.existsSync(path.join(ROUTES_DIR, entry.name, f)));
      return inner ? [`${entry.name}/${inner}`] : [];
    })
    .sort();
}

function loadRoute(file: string) {
  const load = routeModules[`/app/routes/${file}`];
  if (!load) throw new Error(`No route module app/routes/${file}`);
  return load();
}

function isDataWithInit(value: unknown): value is { init: ResponseInit | null } {
  return typeof value === "object" && value !== null && (value as { type?: string }).type === "DataWithResponseInit";
}

interface Actual {
  status: number;
  location?: string | null;
  error?: string;
}

function outcomeOf(value: unknown): Actual {
  if (value instanceof Response) return { status: value.status, location: value.headers.get("Location") };
  if (isDataWithInit(value)) {
    const headers = new Headers(value.init?.headers);
    return { status: value.init?.status ?? 200, location: headers.get("Location") };
  }
  return { status: 200 };
}

/** What Remix would answer: the handler's response, a thrown Response, or 500 for anything else thrown. */
async function invoke(module: RouteModule, request: Request, params: Record<string, string>): Promise<Actual> {
  const handler = request.method === "GET" ? module.loader : module.action;
  if (!handler) return { status: request.method === "GET" && module.default ? 200 : 405 };
  try {
    const result: unknown = await handler({ request, params, context: loadContext() });
    // A body nobody reads is let go, as a client that hangs up does (a streamed export ends its turn).
    if (result instanceof Response && result.body) {
      await result.body.cancel();
      // The stream's own close comes on a later tick.
      await new Promise((resolve) => setImmediate(resolve));
    }
    return outcomeOf(result);
  } catch (error) {
    if (error instanceof Response || isDataWithInit(error)) return outcomeOf(error);
    return { status: 500, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  }
}

function describeOutcome(expected: Outcome, actual?: Actual): string {
  const want = typeof expected === "number" ? { status: expected } : expected;
  if (!actual) return want.location ? `${want.status} → ${String(want.location)}` : String(want.status);
  const locationOk =
    !want.location || (typeof want.location === "string" ? actual.location?.startsWith(want.location) : want.location.test(actual.location ?? ""));
  const shown = want.location ? ` → ${locationOk ? String(want.location) : (actual.location ?? "(none)")}` : "";
  return `${actual.status}${shown}${actual.error ? ` (${actual.error})` : ""}`;
}

function expectedFor(expected: Expected, transport: Transport): Outcome {
  return typeof expected === "object" && "cookie" in expected ? expected[transport] : expected;
}

const statusOf = (outcome: Outcome) => (typeof outcome === "number" ? outcome : outcome.status);

export function authorizationSuite(shard: number, shards: number) {
  const fixtures = {} as Fixtures;
  const mine = rows.filter((_, i) => i % shards === shard - 1);
  beforeAll(() => makeTableFixtures(rowFiles, fixtures));
  describe(`authorization table (part ${shard} of ${shards})`, () => {
    if (shard === 1) tableChecks(fixtures);
    rowTests(mine, fixtures);
  });
}

function tableChecks(fixtures: Fixtures) {
  test("every route file has rows for each handler it exports", async () => {
    const missing: string[] = [];
    for (const file of routeFiles()) {
      const module = await loadRoute(file);
      const ofFile = rows.filter((r) => r.route === file);
      if (module.loader && !ofFile.some((r) => r.method === "GET")) missing.push(`${file}: GET (loader)`);
      if (module.action && !ofFile.some((r) => r.method !== "GET")) missing.push(`${file}: POST/PATCH/DELETE (action)`);
      if (!module.loader && !module.action && ofFile.length === 0) missing.push(`${file}: GET (page)`);
    }
    expect(
      missing,
      `These routes have no authorization rows. Add them to tests/integration/authorization/<area>.rows.ts:\n  ${missing.join("\n  ")}\n`,
    ).toEqual([]);
    // It imports every route module: seconds on a quiet machine, more when the machine is busy.
  }, 90_000);

  test("every row names an existing route file, and its path fits that route", async () => {
    const files = new Set(routeFiles());
    const problems: string[] = [];
    for (const row of rows) {
      if (!files.has(row.route)) {
        problems.push(`${row.route}: no such file in app/routes`);
        continue;
      }
      for (const actor of CALLERS) {
        const call: Call = { actor, transport: "cookie", user: actor === "anonymous" ? null : fixtures[actor] };
        const target = typeof row.path === "function" ? await row.path(fixtures, call) : row.path;
        const pathname = new URL(target, BASE_URL).pathname;
        if (!paramsFor(row.route, pathname)) problems.push(`${row.method} ${target}: does not match ${row.route} (${routePattern(row.route)})`);
      }
    }
    expect(problems).toEqual([]);
  });

  test("every row a customer passes names what a member's role needs for it", () => {
    const unnamed = rows
      .filter((row) => !row.needs && !row.members)
      .filter((row) =>
        TRANSPORTS.some((t) => {
          const customer = expectedFor(row.expect.customerA, t);
          return statusOf(customer) < 400 && JSON.stringify(customer) !== JSON.stringify(expectedFor(row.expect.anonymous, t));
        }),
      )
      .map((row) => `${row.method} ${row.route}${row.note ? ` (${row.note})` : ""}`);
    expect(unnamed, 'Give these rows `needs` (a capability, or "any"):').toEqual([]);
  });
}

function rowTests(mine: AuthorizationRow[], fixtures: Fixtures) {
  test.each(mine.map((row) => [`${row.method} ${typeof row.path === "string" ? row.path : row.route}${row.note ? ` (${row.note})` : ""}`, row] as const))(
    "%s",
    async (_name, row) => {
      const module = await loadRoute(row.route);
      const want: Record<string, string> = {};
      const got: Record<string, string> = {};
      for (const actor of CALLERS) {
        for (const transport of TRANSPORTS) {
          const call: Call = { actor, transport, user: actor === "anonymous" ? null : fixtures[actor] };
          const request = await rowRequest(row, fixtures, call);
          const params = paramsFor(row.route, new URL(request.url).pathname) ?? {};
          const expected = expectedFor(expectedOf(row, actor), transport);
          const key = `${actor} / ${transport}`;
          want[key] = describeOutcome(expected);
          got[key] = describeOutcome(expected, await invoke(module, request, params));
        }
      }
      expect(got).toEqual(want);
    },
  );
}
