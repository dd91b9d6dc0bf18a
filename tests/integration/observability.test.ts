import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { parseMetrics } from "../support/prometheus";
import { ensureBuild, startServer, type ServerProcess } from "../support/server-process";

/*
 * The production server's /metrics (METRICS_TOKEN) and traces (OTEL_EXPORTER_OTLP_ENDPOINT), and
 * that without the trace setting no OpenTelemetry module is loaded at all.
 */

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "brandlift-observability-"));
const MODULE_LOG_PRELOAD = `--import ${path.resolve(import.meta.dirname, "../support/module-log.mjs")}`;
const servers: ServerProcess[] = [];

beforeAll(() => ensureBuild(), 300_000);
afterAll(async () => {
  for (const server of servers) await server.stop("SIGKILL");
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function boot(name: string, settings: Record<string, string>) {
  // A first boot migrates and seeds the embedded database: minutes on a loaded 2-core machine.
  const server = await startServer({ DATA_DIR: path.join(dataDir, name), ...settings }, { timeoutMs: 170_000 });
  servers.push(server);
  return server;
}

describe("GET /metrics", () => {
  const token = crypto.randomBytes(16).toString("hex");
  let server: ServerProcess;
  beforeAll(async () => {
    server = await boot("metrics", { METRICS_TOKEN: token });
  }, 180_000);

  test("counts requests by route pattern and status, whichever path answered them", async () => {
    const order = crypto.randomUUID();
    const paths = ["/", "/", "/api/services", "/api/services", "/login", `/dashboard/orders/${order}`, `/no-such-page-${order}`];
    for (const p of paths) await (await fetch(server.url + p, { redirect: "manual" })).arrayBuffer();

    expect((await fetch(`${server.url}/metrics`)).status).toBe(401);
    const response = await fetch(`${server.url}/metrics`, { headers: { Authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    const samples = parseMetrics(await response.text());
    const count = (route: string, status: string) =>
      samples
        .filter((s) => s.name === "http_request_duration_seconds_count" && s.labels.route === route && s.labels.status === status)
        .reduce((sum, s) => sum + s.value, 0);
    expect(count("/", "200")).toBe(2);
    expect(count("/api/services", "200")).toBe(2);
    expect(count("/login", "200")).toBe(1);
    expect(count("/dashboard/orders/:orderId", "302")).toBe(1);
    expect(count("unmatched", "404")).toBe(1);
    const routes = new Set(samples.filter((s) => s.name === "http_request_duration_seconds_count").map((s) => s.labels.route));
    for (const route of routes) expect(route).not.toContain(order);

    for (const name of [
      "brandlift_open_sockets",
      "brandlift_chat_messages_total",
      "brandlift_webhook_deliveries_total",
      "process_resident_memory_bytes",
      "nodejs_heap_size_used_bytes",
    ]) {
      expect(samples.some((s) => s.name === name)).toBe(true);
    }
    expect(samples.find((s) => s.name === "brandlift_webhook_deliveries_total" && s.labels.result === "failed")?.value).toBe(0);
  });
});

describe("traces", () => {
  const received: { name: string; kind: number; attributes: Record<string, unknown> }[] = [];
  let receiver: http.Server;
  let server: ServerProcess;
  const moduleLog = path.join(dataDir, "traced-modules.log");

  beforeAll(async () => {
    // A collector's OTLP/HTTP endpoint, JSON encoding: it keeps the spans it is sent.
    receiver = http.createServer((req, res) => {
      let body = "";
      req.on("data", (chunk: Buffer) => (body += chunk));
      req.on("end", () => {
        if (req.url === "/v1/traces") {
          const payload = JSON.parse(body) as {
            resourceSpans: { scopeSpans: { spans: { name: string; kind: number; attributes: { key: string; value: Record<string, unknown> }[] }[] }[] }[];
          };
          for (const resource of payload.resourceSpans)
            for (const scope of resource.scopeSpans)
              for (const span of scope.spans)
                received.push({
                  name: span.name,
                  kind: span.kind,
                  attributes: Object.fromEntries(span.attributes.map((a) => [a.key, Object.values(a.value)[0]])),
                });
        }
        res.writeHead(200, { "Content-Type": "application/json" }).end("{}");
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    server = await boot("traced", {
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`,
      OTEL_BSP_SCHEDULE_DELAY: "100",
      NODE_OPTIONS: MODULE_LOG_PRELOAD,
      MODULE_LOG: moduleLog,
    });
  }, 180_000);
  afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

  test("a request arrives as an HTTP server span with its loader's span inside", async () => {
    expect((await fetch(`${server.url}/login?redirectTo=%2Fdashboard`)).status).toBe(200);
    // SpanKind.SERVER is 2 in OTLP's JSON. The request's span ends after its loaders' (when the answer
    // is finished), so it may come in a later batch: wait for both.
    const requestSpan = () => received.find((s) => s.kind === 2 && String(s.attributes["url.path"] ?? s.attributes["http.target"] ?? "").startsWith("/login"));
    const loaderSpan = () => received.find((s) => s.name === "loader routes/_auth+/login");
    for (let i = 0; i < 100 && !(loaderSpan() && requestSpan()); i++) await new Promise((r) => setTimeout(r, 100));
    expect(loaderSpan()?.attributes["remix.route.id"]).toBe("routes/_auth+/login");
    expect(received.some((s) => s.name === "loader root")).toBe(true);
    const request = requestSpan();
    expect(request?.name, `spans received: ${received.map((s) => `${s.kind} ${s.name}`).join(", ")}`).toMatch(/^GET/);
    expect(fs.readFileSync(moduleLog, "utf8")).toContain("@opentelemetry/sdk-node");
  });

  test("each database query is a client span with its SQL text and no parameters", async () => {
    expect((await fetch(`${server.url}/api/services`)).status).toBe(200);
    // SpanKind.CLIENT is 3 in OTLP's JSON.
    const querySpan = () => received.find((s) => s.kind === 3 && s.name === "pg select" && String(s.attributes["db.statement"]).includes('"services"'));
    for (let i = 0; i < 100 && !querySpan(); i++) await new Promise((r) => setTimeout(r, 100));
    const span = querySpan();
    expect(span, `spans received: ${received.map((s) => `${s.kind} ${s.name}`).join(", ")}`).toBeDefined();
    expect(span!.attributes["db.system"]).toBe("pglite");
    expect(span!.attributes["db.operation"]).toBe("select");
    expect(Object.keys(span!.attributes).some((key) => key.includes("param"))).toBe(false);
  });
});

describe("without OTEL_EXPORTER_OTLP_ENDPOINT", () => {
  test("no OpenTelemetry module is loaded, and /metrics is a 404 without METRICS_TOKEN", async () => {
    const moduleLog = path.join(dataDir, "plain-modules.log");
    fs.writeFileSync(moduleLog, "");
    const server = await boot("plain", { NODE_OPTIONS: MODULE_LOG_PRELOAD, MODULE_LOG: moduleLog });
    expect((await fetch(`${server.url}/login`)).status).toBe(200);
    expect((await fetch(`${server.url}/api/services`)).status).toBe(200);
    expect((await fetch(`${server.url}/metrics`, { headers: { Authorization: "Bearer anything" } })).status).toBe(404);
    expect(fs.readFileSync(moduleLog, "utf8")).toBe("");
  }, 180_000);
});
