import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { env } from "~/utils/env.server";
import { forgeryGuard } from "~/web/same-origin.server";

/*
 * The forgery check as server.ts mounts it, ahead of the Remix handler (here a stand-in that
 * records what reached it). A page on another port or subdomain of the host shares the site, so
 * SameSite=Lax lets the cookie through: only APP_URL's origin may change state with it.
 * tests/integration/forgery-server.test.ts drives the production server the same way.
 */

const APP = new URL(env.appUrl);
const OTHER_PORT = `${APP.protocol}//${APP.hostname}:4999`;
const SUBDOMAIN = `${APP.protocol}//blog.${APP.hostname}:${APP.port}`;
const COOKIE = "theme=dark; __session=abc.def";

let server: http.Server;
let url: string;
const reached: string[] = [];

beforeAll(async () => {
  const app = express();
  app.use((_req, res, next) => {
    res.locals.requestId = "req-1";
    next();
  });
  app.use(forgeryGuard);
  app.all("*", (req, res) => {
    reached.push(`${req.method} ${req.originalUrl}`);
    res.status(204).end();
  });
  server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function send(method: string, path: string, headers: Record<string, string>) {
  reached.length = 0;
  // As behind the proxy: the request names APP_URL's host (X-Forwarded-Host), unless the case says otherwise.
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { "X-Forwarded-Host": APP.host, ...headers },
    ...(method === "GET" || method === "HEAD" ? {} : { body: "intent=x" }),
  });
  const body = response.status === 204 ? null : await response.json();
  return { status: response.status, body, reached: reached.length > 0 };
}

describe("a state change riding the session cookie", () => {
  test.each([
    ["a page on another port of the host", "POST", "/dashboard/team", { Origin: OTHER_PORT }],
    ["a subdomain", "POST", "/dashboard/orders/x", { Origin: SUBDOMAIN }],
    ["another site", "DELETE", "/api/services/x", { Origin: "https://evil.example" }],
    ["an opaque origin (sandboxed frame)", "POST", "/dashboard/account", { Origin: "null" }],
    ["no Origin but Sec-Fetch-Site: same-site", "POST", "/dashboard/account", { "Sec-Fetch-Site": "same-site" }],
    ["no Origin but Sec-Fetch-Site: cross-site", "PATCH", "/api/chat/threads/x", { "Sec-Fetch-Site": "cross-site" }],
    ["a sign-out from another origin", "POST", "/logout", { Origin: OTHER_PORT }],
    ["an API sign-out from another origin", "POST", "/api/auth/logout", { Origin: SUBDOMAIN }],
  ])("from %s is refused with 403 in the error shape", async (_name, method, path, headers) => {
    const answer = await send(method, path, { Cookie: COOKIE, ...headers });
    expect(answer.reached).toBe(false);
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({
      success: false,
      status: "error",
      message: "Cross-site request refused.",
      error: "Cross-site request refused.",
      code: "BAD_ORIGIN",
      requestId: "req-1",
    });
  });

  test.each([
    ["APP_URL's origin", { Origin: APP.origin }],
    ["no Origin and Sec-Fetch-Site: same-origin", { "Sec-Fetch-Site": "same-origin" }],
    ["neither header (not a browser)", {}],
  ])("from %s goes on", async (_name, headers) => {
    expect(await send("POST", "/dashboard/team", { Cookie: COOKIE, ...headers })).toMatchObject({ status: 204, reached: true });
  });

  test("APP_URL's origin on a request for another host is refused (403), not left to the page's handler (which answers 500)", async () => {
    expect(await send("POST", "/dashboard/account", { Cookie: COOKIE, Origin: APP.origin, "X-Forwarded-Host": "other.example" })).toMatchObject({
      status: 403,
      body: { code: "BAD_ORIGIN" },
      reached: false,
    });
  });

  test("reads from another origin go on (they change nothing)", async () => {
    expect(await send("GET", "/dashboard", { Cookie: COOKIE, Origin: OTHER_PORT, "Sec-Fetch-Site": "same-site" })).toMatchObject({
      status: 204,
      reached: true,
    });
  });
});

describe("without the session cookie", () => {
  test("a bearer-token API call goes on from anywhere", async () => {
    const answer = await send("POST", "/api/services/purchase", { Authorization: "Bearer t", Origin: "https://evil.example" });
    expect(answer).toMatchObject({ status: 204, reached: true });
  });

  test("a page post from another origin (a forged sign-in) is refused with 403, not left to fail as a 500", async () => {
    const answer = await send("POST", "/login", { Origin: OTHER_PORT });
    expect(answer).toMatchObject({ status: 403, reached: false, body: { code: "BAD_ORIGIN" } });
  });

  test("a page path that only looks like /api after another host's name is a page post", async () => {
    const answer = await send("POST", "//evil.example/api/services/purchase", { Origin: OTHER_PORT });
    expect(answer).toMatchObject({ status: 403, reached: false });
  });
});

describe("the legacy `?_data` path", () => {
  test.each([
    ["POST", "/dashboard/team?_data=routes%2Fdashboard.team", { Cookie: COOKIE, Origin: APP.origin }],
    ["POST", "/dashboard/team?_data=routes%2Fdashboard.team", { Cookie: COOKIE, Origin: OTHER_PORT }],
    ["GET", "/dashboard/team?_data=routes%2Fdashboard.team", { Cookie: COOKIE }],
    ["GET", "/?index&_data=routes%2F_index", {}],
  ])("%s %s is refused outright", async (method, path, headers) => {
    const answer = await send(method, path, headers);
    expect(answer).toMatchObject({ status: 400, reached: false, body: { code: "LEGACY_DATA_REQUEST", status: "error" } });
  });
});
