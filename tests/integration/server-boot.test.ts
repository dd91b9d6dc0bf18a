import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { ensureBuild, runServerExpectingFailure, sameOriginHeaders, signIn, signInCookie, startServer, type ServerProcess } from "../support/server-process";

/** A GET whose body stays as it came on the wire (fetch would decompress it). */
function rawGet(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on("error", reject);
  });
}

/** Any request, body left as it came; a chunked GET carries an empty body (and so goes through Express). */
function rawRequest(
  url: string,
  headers: Record<string, string> = {},
  method = "GET",
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end();
  });
}

const BUILD_ASSETS = path.resolve(process.env.BUILD_DIR ?? "build", "client/assets");

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "brandlift-boot-"));

beforeAll(() => ensureBuild(), 180_000);
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe("the production server with no settings", () => {
  let server: ServerProcess;
  beforeAll(async () => {
    // An empty DATA_DIR: PGlite made, 22 migrations, the demo seed (argon2 hashes): over 30 s on a loaded 2-core machine.
    server = await startServer({ DATA_DIR: path.join(dataDir, "empty") }, { timeoutMs: 110_000 });
  }, 120_000);
  afterAll(async () => {
    await server?.stop("SIGKILL");
  });

  test("serves / and /healthz from an empty DATA_DIR", async () => {
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: "ok", database: "up", redis: "not configured" });
    const home = await fetch(`${server.url}/`);
    expect(home.status).toBe(200);
    expect(home.headers.get("content-type")).toContain("text/html");
    expect(home.headers.get("content-security-policy")).toMatch(/script-src 'self' 'nonce-/);
    expect(home.headers.get("x-content-type-options")).toBe("nosniff");
    expect(fs.existsSync(path.join(dataDir, "empty", "pglite"))).toBe(true);
  });

  test("public pages carry the stylesheet inline; signed-in pages link the cached file, which the sign-in page fetches ahead", async () => {
    const login = await (await fetch(`${server.url}/login`)).text();
    expect(login).toContain('<style id="app-styles">');
    const prefetched = /<link rel="prefetch" as="style" href="(\/assets\/tailwind-[^"]+\.css)"\/>/.exec(login)?.[1];
    expect(prefetched).toBeDefined();
    const { token } = await signIn(server.url, "customer@brandlift.test");
    const page = await fetch(`${server.url}/dashboard/services`, { headers: { Authorization: `Bearer ${token}` } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).not.toContain("<style");
    expect(html).toContain(`<link rel="stylesheet" href="${prefetched}"/>`);
    expect(Buffer.byteLength(html)).toBeLessThanOrEqual(40 * 1024);
    const css = await fetch(`${server.url}${prefetched}`);
    expect(css.headers.get("content-type")).toContain("text/css");
    expect(css.headers.get("cache-control")).toContain("immutable");
  });

  test("every signed-in page people live in stays within 40 KB of HTML, its icons drawn from the cached sprite", async () => {
    const customer = await signIn(server.url, "customer@brandlift.test");
    const team = await signIn(server.url, "team@brandlift.test");
    const pages = [
      ...["/dashboard/services", "/dashboard/calendar", "/dashboard/messages"].map((path) => ({ path, token: customer.token })),
      ...["/dashboard", "/dashboard/inbox", "/dashboard/orders", "/dashboard/calendar", `/dashboard/users/${customer.user._id}`].map((path) => ({
        path,
        token: team.token,
      })),
    ];
    const sprites = new Set<string>();
    const symbols = new Set<string>();
    for (const { path: pathname, token } of pages) {
      const page = await fetch(`${server.url}${pathname}`, { headers: { Authorization: `Bearer ${token}` } });
      expect(page.status, pathname).toBe(200);
      const html = await page.text();
      expect(Buffer.byteLength(html), `${pathname}: bytes of HTML`).toBeLessThanOrEqual(40 * 1024);
      // The sidebar's links: one shared class and a reference into the sprite each, no inline paths.
      const uses = [...html.matchAll(/<use href="(\/assets\/icons-[^"#]+\.svg)#([a-z0-9-]+)">/g)];
      expect(uses.length, pathname).toBeGreaterThanOrEqual(8);
      for (const [, sprite, id] of uses) {
        sprites.add(sprite!);
        symbols.add(id!);
      }
      expect(html, pathname).toContain('class="sidebar-link');
    }
    expect(sprites.size).toBe(1);
    const [sprite] = [...sprites];
    const file = await fetch(`${server.url}${sprite}`);
    expect(file.headers.get("content-type")).toContain("image/svg+xml");
    expect(file.headers.get("cache-control")).toContain("immutable");
    const svg = await file.text();
    for (const id of symbols) expect(svg, id).toContain(`<symbol id="${id}" viewBox="0 0 24 24"`);
  });

  test("prints the demo sign-ins of the embedded database", () => {
    expect(server.output()).toContain("team@brandlift.test");
    expect(server.output()).toContain("customer@brandlift.test");
  });

  test("answers unknown API paths and malformed JSON in the JSON error shape, never HTML", async () => {
    const missing = await fetch(`${server.url}/api/does-not-exist`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get("content-type")).toContain("application/json");
    expect(await missing.json()).toMatchObject({ success: false, status: "error", code: "NOT_FOUND" });

    const malformed = await fetch(`${server.url}/api/auth/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: "{not json",
    });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ success: false, status: "error", code: "MALFORMED_JSON" });
  });

  test("gives hashed assets an immutable cache lifetime", async () => {
    const html = await (await fetch(`${server.url}/`)).text();
    const asset = /\/assets\/[^"]+\.js/.exec(html)?.[0];
    expect(asset).toBeDefined();
    const response = await fetch(`${server.url}${asset}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toContain("immutable");
  });

  test("serves hashed assets as compressed at build time: brotli, gzip or identity, the same bytes as the build's files", async () => {
    const html = await (await fetch(`${server.url}/`)).text();
    // The stylesheet is inlined into the page (decision 008): the page's first script stands in.
    const script = /\/assets\/[^"]+\.js/.exec(html)?.[0];
    expect(script).toBeDefined();
    const file = path.join(BUILD_ASSETS, path.basename(script!));
    const identity = fs.readFileSync(file);

    const br = await rawGet(`${server.url}${script}`, { "Accept-Encoding": "gzip, deflate, br" });
    expect(br.status).toBe(200);
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers.vary).toBe("Accept-Encoding");
    expect(br.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(br.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(br.body.equals(fs.readFileSync(`${file}.br`))).toBe(true);
    expect(zlib.brotliDecompressSync(br.body).equals(identity)).toBe(true);

    const gzip = await rawGet(`${server.url}${script}`, { "Accept-Encoding": "gzip, br;q=0" });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(gzip.body.equals(fs.readFileSync(`${file}.gz`))).toBe(true);

    const plain = await rawGet(`${server.url}${script}`);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.equals(identity)).toBe(true);

    const missing = await fetch(`${server.url}/assets/not-a-build-file.js`);
    expect(missing.status).toBe(404);
  });

  test("answers a signed-out visitor's / from memory with the same headers as through Express, and a fresh request id", async () => {
    const first = await rawGet(`${server.url}/`, { "Accept-Encoding": "br" });
    const second = await rawGet(`${server.url}/`, { "Accept-Encoding": "br" });
    expect(second.headers["x-landing-cache"]).toBe("hit");
    expect(second.headers["content-encoding"]).toBe("br");
    const comparable = (h: http.IncomingHttpHeaders) => {
      const { date: _date, "x-request-id": _id, ...rest } = h;
      return rest;
    };
    expect(comparable(second.headers)).toEqual(comparable(first.headers));
    expect(second.headers["x-request-id"]).not.toBe(first.headers["x-request-id"]);
    expect(second.headers["content-security-policy"]).toMatch(/'nonce-[^']+'/);
    expect(zlib.brotliDecompressSync(second.body).toString()).toContain("<!DOCTYPE html>");
    // With a cookie, the page is rendered for that visitor.
    const signedOutLooking = await rawGet(`${server.url}/`, { Cookie: "something=1" });
    expect(signedOutLooking.headers["x-landing-cache"]).toBeUndefined();
  });

  test("compresses what it serves per request in brotli's small window (decision 318)", async () => {
    // RFC 7932, 9.1: a stream opens with its window; 0b0011 in the low four bits is 2^18 bytes.
    const windowOf = (body: Buffer) => body[0]! & 0b1111;
    const customer = await signIn(server.url, "customer@brandlift.test");
    const page = await rawGet(`${server.url}/dashboard/services`, { "Accept-Encoding": "br", Authorization: `Bearer ${customer.token}` });
    const json = await rawGet(`${server.url}/api/services/my-purchases`, { "Accept-Encoding": "br", Authorization: `Bearer ${customer.token}` });
    for (const answer of [page, json]) {
      expect(answer.headers["content-encoding"]).toBe("br");
      expect(windowOf(answer.body)).toBe(0b0011);
      expect(zlib.brotliDecompressSync(answer.body).length).toBeGreaterThan(0);
    }
    expect(zlib.brotliDecompressSync(page.body).toString()).toContain("Purchased Services");
  });

  test("answers /api reads before Express with the headers and bodies of the Express path", async () => {
    // A GET whose (empty) body is chunked goes through Express: the same request both ways.
    const viaExpress = (url: string, headers: Record<string, string> = {}) => rawRequest(url, { ...headers, "Transfer-Encoding": "chunked" });
    const comparable = (h: http.IncomingHttpHeaders) => {
      const { date: _date, "x-request-id": _id, "content-length": _length, "transfer-encoding": _te, ...rest } = h;
      return rest;
    };
    const { token } = await signIn(server.url, "customer@brandlift.test");
    for (const [pathname, headers] of [
      ["/api/services", { "Accept-Encoding": "br" }],
      ["/api/services", { "Accept-Encoding": "gzip" }],
      ["/api/services", {}],
      ["/api/services/my-purchases", { Authorization: `Bearer ${token}` }],
      ["/api/services/my-purchases", {}],
      ["/api/does-not-exist", {}],
      ["/api/openapi.json", { "Accept-Encoding": "br" }],
    ] as const) {
      const fast = await rawGet(`${server.url}${pathname}`, headers);
      const slow = await viaExpress(`${server.url}${pathname}`, headers);
      // The two really took different paths: the fast path sends a length, Express streams in chunks.
      expect(fast.headers["content-length"]).toBeDefined();
      expect(slow.headers["transfer-encoding"]).toBe("chunked");
      expect({ pathname, status: fast.status }).toEqual({ pathname, status: slow.status });
      expect(comparable(fast.headers)).toEqual(comparable(slow.headers));
      expect(fast.headers["cache-control"]).toBe("private, no-store");
      expect(fast.headers["content-security-policy"]).not.toMatch(/nonce/);
      const decode = (r: { headers: http.IncomingHttpHeaders; body: Buffer }) =>
        r.headers["content-encoding"] === "br"
          ? zlib.brotliDecompressSync(r.body)
          : r.headers["content-encoding"] === "gzip"
            ? zlib.gunzipSync(r.body)
            : r.body;
      expect(decode(fast).toString()).toBe(decode(slow).toString());
    }
    // Paths are matched as Remix matches them (case-insensitive), and a malformed escape is a JSON 400, never HTML.
    const upper = await rawGet(`${server.url}/API/Services`);
    expect(upper.status).toBe(200);
    const malformed = await rawGet(`${server.url}/api/services/purchases/%ZZ`);
    expect(malformed.status).toBe(400);
    expect(JSON.parse(malformed.body.toString())).toMatchObject({ success: false, code: "MALFORMED_PATH" });
    // …whatever the method, even one the route does not take (Remix would answer 405 first), and
    // on a path no route takes (404 otherwise).
    for (const method of ["GET", "POST", "DELETE", "PATCH"]) {
      for (const route of ["/api/services/%ZZ", "/api/chat/threads/%ZZ", "/api/%ZZ", "/api/orders/%E0%A4"]) {
        const refused = await rawRequest(`${server.url}${route}`, { "Content-Type": "application/json" }, method);
        expect(refused.status, `${method} ${route}`).toBe(400);
        expect(JSON.parse(refused.body.toString()), `${method} ${route}`).toMatchObject({ success: false, code: "MALFORMED_PATH" });
      }
    }
    const head = await rawRequest(`${server.url}/api/services`, {}, "HEAD");
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
  });

  test("answers a browser's signed-in page again from memory until data changes: another browser's rename and a sign-out show on the next request", async () => {
    const [here, there] = [await signInCookie(server.url, "customer@brandlift.test"), await signInCookie(server.url, "customer@brandlift.test")];
    const page = (cookie: string) => rawGet(`${server.url}/dashboard/services`, { Cookie: cookie, "Accept-Encoding": "br" });
    // Any change anywhere renders again: the sign-ins' own work in the background (their e-mails) first.
    const answers = [await page(here)];
    while (answers.length < 100 && answers.at(-1)!.headers["x-page-cache"] !== "hit") {
      await new Promise((resolve) => setTimeout(resolve, 50));
      answers.push(await page(here));
    }
    const [first, again] = answers.slice(-2) as [Awaited<ReturnType<typeof page>>, Awaited<ReturnType<typeof page>>];
    expect(answers[0]!.status).toBe(200);
    expect(answers[0]!.headers["x-page-cache"]).toBeUndefined();
    expect(again.headers["x-page-cache"]).toBe("hit");
    expect(again.body.equals(first.body)).toBe(true);
    expect(again.headers["x-request-id"]).not.toBe(first.headers["x-request-id"]);
    // The Content-Security-Policy's nonce is the one in the kept page.
    const html = zlib.brotliDecompressSync(again.body).toString("utf8");
    const nonce = /script-src[^;]*'nonce-([^']+)'/.exec(String(again.headers["content-security-policy"]))?.[1];
    expect(nonce).toBeTruthy();
    expect(html).toContain(`nonce="${nonce}"`);

    const renamed = await fetch(`${server.url}/dashboard/account`, {
      method: "POST",
      headers: { Cookie: there, ...sameOriginHeaders(server.url), "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent: "name", name: "Jordan Renamed" }),
      redirect: "manual",
    });
    expect(renamed.status).toBeLessThan(400);
    const after = await page(here);
    expect(after.headers["x-page-cache"]).toBeUndefined();
    expect(zlib.brotliDecompressSync(after.body).toString("utf8")).toContain("Jordan Renamed");

    const out = await fetch(`${server.url}/logout`, { method: "POST", headers: { Cookie: here, ...sameOriginHeaders(server.url) }, redirect: "manual" });
    expect(out.status).toBe(302);
    const signedOut = await page(here);
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.location).toMatch(/^\/login/);
  });

  test("shuts down cleanly on SIGTERM", async () => {
    // An empty DATA_DIR, as above: migrations and the demo seed first.
    const other = await startServer({ DATA_DIR: path.join(dataDir, "sigterm") }, { timeoutMs: 110_000 });
    expect(await other.stop("SIGTERM")).toBe(0);
  }, 130_000);
});

describe("one HTTP request reads the identity once", () => {
  const sqlLog = path.join(dataDir, "statements.log");
  let server: ServerProcess;
  beforeAll(async () => {
    const preload = `--import ${path.resolve(import.meta.dirname, "../support/sql-log.mjs")}`;
    // What a render costs: every request renders (no page is answered again from memory).
    server = await startServer(
      { DATA_DIR: path.join(dataDir, "identity"), NODE_OPTIONS: preload, SQL_LOG: sqlLog, PAGE_CACHE_SECONDS: "0" },
      { timeoutMs: 110_000 },
    );
  }, 120_000);
  afterAll(async () => {
    await server?.stop("SIGKILL");
  });
  /** The statements the server ran while answering `request` (its body read to the end). */
  const statementsOf = async (request: () => Promise<Response>) => {
    fs.writeFileSync(sqlLog, "");
    const response = await request();
    await response.arrayBuffer();
    const texts = fs
      .readFileSync(sqlLog, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as string);
    return { status: response.status, texts };
  };

  test("a signed-in document's root, layout and page loaders share one read of the session (the server passes the method into the request's scope)", async () => {
    const { token } = await signIn(server.url, "customer@brandlift.test");
    const sessionReads = async (request: () => Promise<Response>) => {
      const { status, texts } = await statementsOf(request);
      return { status, reads: texts.filter((text) => /from "sessions" inner join "users"/.test(text)).length };
    };
    const headers = { Authorization: `Bearer ${token}` };
    expect(await sessionReads(() => fetch(`${server.url}/dashboard/services`, { headers }))).toEqual({ status: 200, reads: 1 });
    // The next request reads it again: the answer lives as long as its request.
    expect(await sessionReads(() => fetch(`${server.url}/dashboard/services`, { headers }))).toEqual({ status: 200, reads: 1 });
  });

  test("each signed-in page issues at most its pinned number of statements (the layout's badges are one, a customer's page reads each thing once)", async () => {
    const customer = await signIn(server.url, "customer@brandlift.test");
    const team = await signIn(server.url, "team@brandlift.test");
    // What a page costs PostgreSQL at load (docs/performance.md, signed-in pages): raise a limit only knowingly.
    const pages: Array<[string, string, number]> = [
      ["/dashboard/services", customer.token, 6],
      ["/dashboard/calendar", customer.token, 6],
      ["/dashboard/messages", customer.token, 4],
      ["/dashboard/inbox", team.token, 4],
      ["/dashboard/orders", team.token, 6],
      [`/dashboard/users/${customer.user._id}`, team.token, 5],
    ];
    const over: Record<string, { statements: number; limit: number; texts: string[] }> = {};
    for (const [page, token, limit] of pages) {
      const headers = { Authorization: `Bearer ${token}` };
      // The first visit may write once (the customer's welcome); the count is the steady page's.
      await (await fetch(`${server.url}${page}`, { headers })).arrayBuffer();
      const { status, texts: all } = await statementsOf(() => fetch(`${server.url}${page}`, { headers }));
      expect(status).toBe(200);
      // Background work (the job queue, a session's once-a-minute "last seen") is not the page's.
      const texts = all.filter((text) => !/pgboss\.|"job_schedules"|"jobs"|^\s*update "sessions"|^\s*(begin|commit|rollback)/i.test(text));
      if (texts.length > limit) over[page] = { statements: texts.length, limit, texts: texts.map((text) => text.slice(0, 3000)) };
    }
    expect(over).toEqual({});
  });
});

describe("a bad setting stops boot with a message naming it", () => {
  test.each([
    ["PORT", "abc"],
    ["DATABASE_URL", "nonsense"],
    ["REDIS_URL", "http://not-redis"],
    ["STRIPE_SECRET_KEY", "pk_live_wrong"],
  ])("%s=%s", async (name, value) => {
    const { code, output } = await runServerExpectingFailure({ DATA_DIR: path.join(dataDir, "bad"), [name]: value });
    expect(code).not.toBe(0);
    expect(output).toContain(name);
    expect(output).not.toMatch(/\n\s+at /);
  });
});
