import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, expect, test } from "vitest";

import { sessionCookie } from "./auth.server";
import { dependsOnIdentity, PRIVATE_CACHE_CONTROL, privateCache, SESSION_COOKIE_NAME } from "./private-cache.server";

let server: http.Server;
let url: string;

beforeAll(async () => {
  const app = express();
  app.use("/assets", (_req, res) => void res.set("Cache-Control", "public, max-age=31536000, immutable").send("asset"));
  app.use(privateCache);
  // A route that sets its own, weaker header: the signed-in answer must still be private.
  app.all("*", (_req, res) => void res.set("Cache-Control", "public, max-age=60").send("page"));
  server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const cacheControl = async (path: string, headers: Record<string, string> = {}) => (await fetch(`${url}${path}`, { headers })).headers.get("Cache-Control");

test("the session cookie's name is the one the middleware looks for", () => {
  expect(SESSION_COOKIE_NAME).toBe(sessionCookie.name);
});

test("what depends on who is signed in", () => {
  expect(dependsOnIdentity("/api/services", {})).toBe(true);
  expect(dependsOnIdentity("/dashboard.data", {})).toBe(true);
  expect(dependsOnIdentity("/dashboard/services/x", {})).toBe(true);
  expect(dependsOnIdentity("/files/reports/x", {})).toBe(true);
  expect(dependsOnIdentity("/", { cookie: "toast=1; __session=abc" })).toBe(true);
  expect(dependsOnIdentity("/", { authorization: "Bearer x" })).toBe(true);
  expect(dependsOnIdentity("/", { cookie: "toast=1" })).toBe(false);
  expect(dependsOnIdentity("/terms", {})).toBe(false);
  expect(dependsOnIdentity("/apiary", {})).toBe(false);
});

test("signed-in answers are private, no-store whatever the route set; public pages and assets keep theirs", async () => {
  expect(await cacheControl("/dashboard")).toBe(PRIVATE_CACHE_CONTROL);
  expect(await cacheControl("/dashboard.data")).toBe(PRIVATE_CACHE_CONTROL);
  expect(await cacheControl("/api/services")).toBe(PRIVATE_CACHE_CONTROL);
  expect(await cacheControl("/", { Cookie: "__session=abc" })).toBe(PRIVATE_CACHE_CONTROL);
  expect(await cacheControl("/")).toBe("public, max-age=60");
  expect(await cacheControl("/assets/app-123.js", { Cookie: "__session=abc" })).toBe("public, max-age=31536000, immutable");
});
