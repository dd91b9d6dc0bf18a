import http from "node:http";
import type { AddressInfo } from "node:net";
import type { ServerBuild } from "@remix-run/node";
import express from "express";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { parseMetrics } from "../tests/support/prometheus";
import { createMetrics, createRouteLabeler, STATIC_ROUTE, UNMATCHED_ROUTE } from "./metrics";

/** The shape of the app's route tree: a root, a catch-all, a layout with pages, API routes. */
const routes: Record<string, { id: string; path?: string; index?: boolean; parentId?: string }> = {
  root: { id: "root", path: "" },
  "routes/$": { id: "routes/$", path: "*", parentId: "root" },
  "routes/_index": { id: "routes/_index", index: true, parentId: "root" },
  "routes/dashboard+/_layout": { id: "routes/dashboard+/_layout", path: "dashboard", parentId: "root" },
  "routes/dashboard+/_index": { id: "routes/dashboard+/_index", index: true, parentId: "routes/dashboard+/_layout" },
  "routes/dashboard+/_staff+/orders+/$orderId": {
    id: "routes/dashboard+/_staff+/orders+/$orderId",
    path: "orders/:orderId",
    parentId: "routes/dashboard+/_layout",
  },
  "routes/api+/services+/_layout": { id: "routes/api+/services+/_layout", path: "api/services", parentId: "root" },
  "routes/api+/orders.$id": { id: "routes/api+/orders.$id", path: "api/orders/:id", parentId: "root" },
  "routes/healthz": { id: "routes/healthz", path: "healthz", parentId: "root" },
};
const build = { routes: Object.fromEntries(Object.entries(routes).map(([id, r]) => [id, { ...r, module: {} }])) } as unknown as ServerBuild;

describe("the route label of a request", () => {
  const label = createRouteLabeler(build);

  test.each([
    ["/", "/"],
    ["/?q=1", "/"],
    ["/_root.data", "/"],
    ["/dashboard", "/dashboard"],
    ["/dashboard/orders/8f7c2f0e-0000-4000-8000-000000000001", "/dashboard/orders/:orderId"],
    ["/dashboard/orders/another-id.data?_routes=x", "/dashboard/orders/:orderId"],
    ["/api/orders/42", "/api/orders/:id"],
    ["/API/Services", "/api/services"],
    ["/healthz", "/healthz"],
    ["/assets/entry-abc123.js", STATIC_ROUTE],
    ["/wp-login.php", UNMATCHED_ROUTE],
    ["/dashboard/nope/deeper", UNMATCHED_ROUTE],
  ])("%s → %s", (url, expected) => {
    expect(label(url)).toBe(expected);
  });

  test("ten thousand random paths make no more than one label", () => {
    const labels = new Set<string>();
    for (let i = 0; i < 10_000; i++) labels.add(label(`/scan/${i}/${Math.random().toString(36).slice(2)}`));
    expect([...labels]).toEqual([UNMATCHED_ROUTE]);
  });
});

describe("GET /metrics", () => {
  let server: http.Server;
  let base: string;
  beforeAll(async () => {
    const metrics = createMetrics(build, { token: "s3cret-token" });
    const app = express();
    app.get("/metrics", metrics.handler);
    app.use((_req, res) => void res.status(404).send("no such page"));
    server = http.createServer((req, res) => {
      metrics.time(req, res);
      if (req.url === "/api/orders/7") metrics.labelRouteId(res, "routes/api+/orders.$id");
      app(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  test.each([
    ["no Authorization", {}],
    ["another token", { Authorization: "Bearer s3cret-tokeN" }],
    ["the token without Bearer", { Authorization: "s3cret-token" }],
    ["a longer token", { Authorization: "Bearer s3cret-token-and-more" }],
  ])("%s: 401, no metrics", async (_name, headers) => {
    const response = await fetch(`${base}/metrics`, { headers });
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe('Bearer realm="metrics"');
    expect(await response.text()).not.toContain("http_request_duration_seconds");
  });

  test("with the token: Prometheus text, requests counted by route pattern and status, Node's process metrics", async () => {
    for (const path of ["/dashboard/orders/a", "/dashboard/orders/b", "/api/orders/7", "/no/such/page"]) await (await fetch(base + path)).text();
    const response = await fetch(`${base}/metrics`, { headers: { Authorization: "Bearer s3cret-token" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain;.*version=0\.0\.4/);
    const samples = parseMetrics(await response.text());
    const count = (route: string, status: string) =>
      samples.find((s) => s.name === "http_request_duration_seconds_count" && s.labels.route === route && s.labels.status === status)?.value;
    expect(count("/dashboard/orders/:orderId", "404")).toBe(2);
    expect(count("/api/orders/:id", "404")).toBe(1);
    expect(count(UNMATCHED_ROUTE, "404")).toBe(1);
    // No raw path is ever a label.
    const routesSeen = new Set(samples.filter((s) => s.name.startsWith("http_request_duration_seconds")).map((s) => s.labels.route));
    expect([...routesSeen].sort()).toEqual(["/api/orders/:id", "/dashboard/orders/:orderId", "/metrics", UNMATCHED_ROUTE]);
    expect(samples.some((s) => s.name === "process_cpu_user_seconds_total")).toBe(true);
    expect(samples.some((s) => s.name === "nodejs_eventloop_lag_seconds")).toBe(true);
  });
});
