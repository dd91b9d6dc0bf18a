import type { ActionFunction, LoaderFunction } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { BASE_URL, credentialHeaders, loadContext, makeTableFixtures, paramsFor, routeSegments } from "../authorization/helpers";
import type { Actor, AuthorizationRow, Call, Expected, Fixtures, RowBody, RowsModule } from "../authorization/types";

/**
 * Hostile text at every form and API route: each row of the authorization table (which every
 * route must have) is replayed with one field, query parameter or path parameter at a time
 * replaced by text carrying NUL or another control character, and with bodies of the wrong shape
 * (malformed multipart, JSON to a form, a multipart file name with `"` and `;`). Whatever the
 * route, the answer is a 4xx or a success, never a 500.
 */

interface RouteModule {
  loader?: LoaderFunction;
  action?: ActionFunction;
}

const rowFiles = import.meta.glob<RowsModule>("../authorization/*.rows.ts", { eager: true });
const routeModules = import.meta.glob<RouteModule>(["/app/routes/*.{ts,tsx}", "/app/routes/*+/**/*.{ts,tsx}", "!/app/routes/**/*.test.{ts,tsx}"]);
export const rows: AuthorizationRow[] = Object.values(rowFiles).flatMap((file) => file.rows);

const HOSTILE = ["a\u0000b", "x\u0001\u001by\u007f"];
/** Dates a lax parser takes that nothing can use (year 0, the end of JavaScript's range), for every date input. */
const OUT_OF_RANGE_DATES = ["0000-01-01", "275760-09-13", "0000-01", "0000-01-01T00:00:00Z"];
const DATE_NAME = /^(?:from|to|month|week|date|due|dueOn|dueAt|scheduledAt)$/;
/** Query parameters the app reads somewhere: each is tried on a GET route that reads its whole query. */
const QUERY_NAMES = [
  "search",
  "q",
  "email",
  "assigneeId",
  "due",
  "session_id",
  "page",
  "limit",
  "before",
  "status",
  "userId",
  "token",
  "redirectTo",
  "planId",
  "upload",
  "insert",
  "pane",
  "customerId",
  "from",
  "to",
  "actorId",
  "action",
];

const fixtures = {} as Fixtures;

function statusOf(expected: Expected): number {
  if (typeof expected === "number") return expected;
  if ("cookie" in expected) return statusOf(expected.cookie);
  return expected.status;
}

/** The actor for whom the row gets furthest (a success before a refusal), so the hostile value reaches the code. */
function bestActor(row: AuthorizationRow): Actor {
  const order: Actor[] = ["team", "customerA", "anonymous"];
  return order.find((actor) => statusOf(row.expect[actor]) < 400) ?? "team";
}

type Body = RowBody | { raw: string; type: string } | undefined;

/** Calls the row's handler with `target` and `body`; `read` is what the handler read of the query. */
export async function invoke(row: AuthorizationRow, target: string, body: Body, actor: Actor): Promise<{ status: number; error?: string; read: QueryReads }> {
  const { result, read } = await watchQueryReads(await handlerCall(row, target, body, actor));
  return { ...result, read };
}

async function handlerCall(row: AuthorizationRow, target: string, body: Body, actor: Actor): Promise<() => Promise<{ status: number; error?: string }>> {
  const module = await routeModules[`/app/routes/${row.route}`]!();
  const headers = new Headers(row.headers);
  const user = actor === "anonymous" ? null : fixtures[actor];
  if (user) for (const [name, value] of Object.entries(await credentialHeaders(user.id, "cookie", row.method))) headers.set(name, value);
  let payload: BodyInit | undefined;
  if (body && "json" in body) {
    headers.set("Content-Type", "application/json");
    payload = JSON.stringify(body.json);
  } else if (body && "form" in body) payload = new URLSearchParams(body.form);
  else if (body && "multipart" in body) payload = body.multipart();
  else if (body && "raw" in body) {
    headers.set("Content-Type", body.type);
    payload = body.raw;
  }
  const request = new Request(`${BASE_URL}${target}`, { method: row.method, headers, body: payload });
  const handler = row.method === "GET" ? module.loader : module.action;
  if (!handler) return async () => ({ status: 405 });
  return () => callHandler(handler, request, row);
}

async function callHandler(handler: LoaderFunction | ActionFunction, request: Request, row: AuthorizationRow): Promise<{ status: number; error?: string }> {
  try {
    const result: unknown = await handler({ request, params: paramsFor(row.route, new URL(request.url).pathname) ?? {}, context: loadContext() });
    if (result instanceof Response) return { status: result.status };
    const init = (result as { init?: ResponseInit | null } | null)?.init;
    return { status: init?.status ?? 200 };
  } catch (error) {
    if (error instanceof Response) return { status: error.status };
    const init =
      (error as { init?: ResponseInit | null; type?: string } | null)?.type === "DataWithResponseInit" ? (error as { init?: ResponseInit }).init : null;
    if (init) return { status: init.status ?? 200 };
    return { status: 500, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  }
}

type QueryReads = Set<string> | "all";

/**
 * Watching which query parameters a call reads: `get`, `getAll` and `has` name one; iterating the
 * parameters or reading a URL's `search`, `href` or string reads them all (a Request's own `url`,
 * which serializes its URL, does not: the string is what `new URL` parses). A parameter a call
 * never reads cannot change what it does, so only the parameters a route reads need hostile values
 * (docs/decisions/245-hostile-query-reads.md). The watchers are put on the prototypes once for a
 * file (`installQueryWatch`) and record only while `watchQueryReads` runs.
 */
let watching: { read: QueryReads; inRequestUrl: boolean } | null = null;
let installed = 0;
let uninstall: () => void = () => {};

export function installQueryWatch(): () => void {
  if (installed++ === 0) {
    const restore: (() => void)[] = [];
    const wrap = (proto: object, key: PropertyKey, kind: "value" | "get", around: (call: () => unknown, args: unknown[]) => unknown) => {
      const descriptor = Object.getOwnPropertyDescriptor(proto, key)!;
      const original = (kind === "value" ? descriptor.value : descriptor.get) as (...args: unknown[]) => unknown;
      const watched = function (this: unknown, ...args: unknown[]) {
        return watching ? around(() => original.apply(this, args), args) : original.apply(this, args);
      };
      Object.defineProperty(proto, key, { ...descriptor, [kind]: watched });
      restore.push(() => Object.defineProperty(proto, key, descriptor));
    };
    const one = (call: () => unknown, args: unknown[]) => {
      if (watching && watching.read !== "all") watching.read.add(String(args[0]));
      return call();
    };
    const all = (call: () => unknown) => {
      if (watching && !watching.inRequestUrl) watching.read = "all";
      return call();
    };
    for (const key of ["get", "getAll", "has"]) wrap(URLSearchParams.prototype, key, "value", one);
    for (const key of ["entries", "keys", "values", "forEach", "toString", Symbol.iterator]) wrap(URLSearchParams.prototype, key, "value", all);
    wrap(URLSearchParams.prototype, "size", "get", all);
    for (const key of ["search", "href"]) wrap(URL.prototype, key, "get", all);
    for (const key of ["toString", "toJSON"]) wrap(URL.prototype, key, "value", all);
    wrap(Request.prototype, "url", "get", (call) => {
      const state = watching!;
      state.inRequestUrl = true;
      try {
        return call();
      } finally {
        state.inRequestUrl = false;
      }
    });
    uninstall = () => {
      for (const undo of restore.reverse()) undo();
    };
  }
  return () => {
    if (--installed === 0) uninstall();
  };
}

/** Runs `run` and returns what it read of any query (calls run one at a time). */
export async function watchQueryReads<T>(run: () => Promise<T>): Promise<{ result: T; read: QueryReads }> {
  const done = installQueryWatch();
  const state: { read: QueryReads; inRequestUrl: boolean } = { read: new Set<string>(), inRequestUrl: false };
  watching = state;
  try {
    return { result: await run(), read: state.read };
  } finally {
    watching = null;
    done();
  }
}

/** The names to try after a call that read `read`: every name it read, or the whole list. */
const namesRead = (read: QueryReads) => (read === "all" ? [...QUERY_NAMES] : [...read]);

/** One variant per string in the body: that string replaced by `value`. */
function bodyVariants(body: RowBody, value: string): { label: string; body: RowBody }[] {
  if ("form" in body) return Object.keys(body.form).map((name) => ({ label: `form ${name}`, body: { form: { ...body.form, [name]: value } } }));
  if ("multipart" in body) {
    const names = [...new Set([...body.multipart().keys()])];
    return names.map((name) => ({
      label: `multipart ${name}`,
      body: {
        multipart: () => {
          const form = body.multipart();
          const current = form.get(name);
          if (current instanceof File) form.set(name, new File([current], `${value}".pdf; x=1`, { type: current.type }));
          else form.set(name, value);
          return form;
        },
      },
    }));
  }
  const variants: { label: string; body: RowBody }[] = [];
  const walk = (node: unknown, path: (string | number)[]) => {
    if (typeof node === "string") {
      const json = structuredClone(body.json) as Record<string | number, unknown>;
      let cursor: Record<string | number, unknown> = json;
      for (const key of path.slice(0, -1)) cursor = cursor[key] as Record<string | number, unknown>;
      cursor[path.at(-1)!] = value;
      variants.push({ label: `json ${path.join(".")}`, body: { json } });
    } else if (node && typeof node === "object") {
      for (const [key, child] of Object.entries(node)) walk(child, [...path, Array.isArray(node) ? Number(key) : key]);
    }
  };
  walk(body.json, []);
  return variants;
}

function withQuery(target: string, name: string, value: string) {
  const url = new URL(target, BASE_URL);
  url.searchParams.set(name, value);
  return url.pathname + url.search;
}

/** Every path parameter of the target replaced in turn. */
function pathVariants(row: AuthorizationRow, target: string, value: string) {
  const url = new URL(target, BASE_URL);
  const segments = routeSegments(row.route);
  const parts = url.pathname.split("/");
  return segments.flatMap((segment, i) => {
    if (!segment.startsWith("$")) return [];
    const copy = [...parts];
    copy[i + 1] = encodeURIComponent(value);
    return [{ label: `param ${segment}`, target: copy.join("/") + url.search }];
  });
}

const BROKEN_BODIES: { label: string; body: Body }[] = [
  { label: "malformed multipart", body: { raw: '--xyz\r\nContent-Disposition: form-data; name="a"\r\n\r\nno end', type: "multipart/form-data; boundary=xyz" } },
  { label: "multipart without a boundary", body: { raw: "garbage", type: "multipart/form-data" } },
  { label: "JSON to a form", body: { raw: '{"email":"a@b.c"', type: "application/json" } },
  { label: "text/plain", body: { raw: "email=a\u0000b", type: "text/plain" } },
  { label: "urlencoded NUL everywhere", body: { raw: "intent=%00&email=%00&name=%00&title=%00&message=%00", type: "application/x-www-form-urlencoded" } },
];

/**
 * The suite over every `shards`-th row from `shard` (1-based): the table is cut in interleaved
 * parts, each its own test file, so that the parts run side by side on the unit project's workers.
 */
export function hostileInputSuite(shard: number, shards: number) {
  const mine = rows.filter((_, i) => i % shards === shard - 1);
  describe(`hostile text and malformed bodies never answer 500 (part ${shard} of ${shards})`, () => {
    let done = () => {};
    beforeAll(async () => {
      await makeTableFixtures(rowFiles, fixtures);
      done = installQueryWatch();
    });
    afterAll(() => done());

    test.each(mine.map((row) => [`${row.method} ${typeof row.path === "string" ? row.path : row.route}${row.note ? ` (${row.note})` : ""}`, row] as const))(
      "%s",
      async (_name, row) => {
        const actor = bestActor(row);
        const call: Call = { actor, transport: "cookie", user: actor === "anonymous" ? null : fixtures[actor] };
        const failures: string[] = [];
        const check = async (label: string, target: string, body: Body) => {
          const outcome = await invoke(row, target, body, actor);
          if (outcome.status >= 500) failures.push(`${label}: ${outcome.status} ${outcome.error ?? ""}`);
          return outcome.read;
        };
        for (const value of HOSTILE) {
          const target = typeof row.path === "function" ? await row.path(fixtures, call) : row.path;
          const body = typeof row.body === "function" ? await row.body(fixtures, call) : row.body;
          for (const variant of pathVariants(row, target, value)) await check(variant.label, variant.target, body);
          if (row.method === "GET") {
            // Every query parameter the route reads, as the plain call and each hostile call show,
            // until no call reads one not yet tried.
            const queue = namesRead(await check("as listed", target, undefined));
            const tried = new Set<string>();
            for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
              if (tried.has(name)) continue;
              tried.add(name);
              queue.push(...namesRead(await check(`query ${name}`, withQuery(target, name, value), undefined)));
            }
          } else {
            if (body) for (const variant of bodyVariants(body, value)) await check(variant.label, target, variant.body);
            // Each field and query parameter again, with a fresh body (rows may make a record per call).
            for (const name of new URL(target, BASE_URL).searchParams.keys()) await check(`query ${name}`, withQuery(target, name, value), body);
          }
        }
        if (row.method !== "GET") {
          const target = typeof row.path === "function" ? await row.path(fixtures, call) : row.path;
          for (const broken of BROKEN_BODIES) await check(broken.label, target, broken.body);
        }
        // Every date the route reads, query or body, out of range.
        for (const value of OUT_OF_RANGE_DATES) {
          const target = typeof row.path === "function" ? await row.path(fixtures, call) : row.path;
          const body = typeof row.body === "function" ? await row.body(fixtures, call) : row.body;
          if (row.method === "GET") {
            const read = namesRead(await check("as listed", target, undefined)).filter((name) => DATE_NAME.test(name));
            for (const name of read) await check(`date ${name}`, withQuery(target, name, value), undefined);
          } else if (body) {
            for (const variant of bodyVariants(body, value))
              if (DATE_NAME.test(variant.label.split(/[ .]/).pop()!)) await check(`date ${variant.label}`, target, variant.body);
          }
        }
        expect(failures).toEqual([]);
      },
      60_000,
    );
  });
}
