import cluster from "node:cluster";
import crypto from "node:crypto";
import type http from "node:http";
import type { ServerBuild } from "@remix-run/node";
import { matchRoutes } from "@remix-run/react";
import type express from "express";
import { AggregatorRegistry, collectDefaultMetrics, Histogram, register, type LabelValues } from "prom-client";

/*
 * GET /metrics (Prometheus text) with `Authorization: Bearer $METRICS_TOKEN`; without the setting
 * nothing here is made and nothing is measured (decision 274). The app's own series (sockets, chat,
 * jobs, e-mails, webhooks) are registered by app/utils/metrics.server.ts in the same global registry.
 * Under WEB_CONCURRENCY > 1 the worker that takes the scrape asks the primary, whose
 * AggregatorRegistry gathers every worker's registry: one scrape counts the whole node.
 */

const REQUEST = "brandlift:metrics-request";
const ANSWER = "brandlift:metrics-answer";
const STARTED = Symbol("metrics.started");
const ROUTE = Symbol("metrics.route");

/** Every path no route matches shares this label: a scan of random paths adds no series. */
export const UNMATCHED_ROUTE = "unmatched";
/** Files of the build (hashed assets, favicon, robots.txt) answered before Express. */
export const STATIC_ROUTE = "static";

type Timed = http.ServerResponse & { [STARTED]?: number; [ROUTE]?: string };
type Child = ReturnType<Histogram<"route" | "method" | "status">["labels"]>;

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

export interface Metrics {
  /** Starts timing a request; its duration is observed when the answer is finished. */
  time(req: http.IncomingMessage, res: http.ServerResponse): void;
  /** Names the request's route when the path alone does not say it (a fast path that knows). */
  label(res: http.ServerResponse, route: string): void;
  /** The label of a route id of the build, for the paths that match by id (the API fast path). */
  labelRouteId(res: http.ServerResponse, routeId: string): void;
  /** Express handler of GET /metrics. */
  handler: express.RequestHandler;
}

export function createMetrics(build: ServerBuild, options: { token: string }): Metrics {
  // Node's process metrics, once per process.
  if (!register.getSingleMetric("process_cpu_user_seconds_total")) collectDefaultMetrics();
  // In a worker, this answers the primary's requests for the worker's registry (prom-client's IPC).
  const aggregator = cluster.isWorker ? new AggregatorRegistry() : undefined;
  const duration =
    (register.getSingleMetric("http_request_duration_seconds") as Histogram<"route" | "method" | "status"> | undefined) ??
    new Histogram({
      name: "http_request_duration_seconds",
      help: "Time from a request's arrival to the end of its answer, by route pattern, method and status",
      labelNames: ["route", "method", "status"],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    });
  const routeOf = createRouteLabeler(build);
  // route → method → status → the histogram's child: no label object or key string per request.
  const children = new Map<string, Map<string, Map<number, Child>>>();
  const child = (route: string, method: string, status: number): Child => {
    let byMethod = children.get(route);
    if (!byMethod) children.set(route, (byMethod = new Map()));
    let byStatus = byMethod.get(method);
    if (!byStatus) byMethod.set(method, (byStatus = new Map()));
    let found = byStatus.get(status);
    if (!found) byStatus.set(status, (found = duration.labels({ route, method, status: String(status) } satisfies LabelValues<string>)));
    return found;
  };

  // A listener shared by every answer (`this` is the response): no closure per request.
  function finished(this: Timed) {
    const req = (this as { req?: http.IncomingMessage }).req;
    const started = this[STARTED];
    if (!req || started === undefined) return;
    const method = req.method && METHODS.has(req.method) ? req.method : "OTHER";
    child(this[ROUTE] ?? routeOf(req.url ?? "/"), method, this.statusCode).observe((performance.now() - started) / 1000);
  }

  const expected = digest(options.token);
  return {
    time(_req, res) {
      (res as Timed)[STARTED] = performance.now();
      res.on("finish", finished);
    },
    label(res, route) {
      (res as Timed)[ROUTE] = route;
    },
    labelRouteId(res, routeId) {
      (res as Timed)[ROUTE] = routeOf.patternOf(routeId);
    },
    handler(req, res) {
      (res as Timed)[ROUTE] = "/metrics";
      const header = req.headers.authorization ?? "";
      const token = header.startsWith("Bearer ") ? header.slice(7).trim() : "";
      // Compared as digests of equal length, in constant time.
      if (!crypto.timingSafeEqual(digest(token), expected)) {
        res
          .status(401)
          .setHeader("WWW-Authenticate", 'Bearer realm="metrics"')
          .type("text/plain")
          .send("Unauthorized: send Authorization: Bearer <METRICS_TOKEN>\n");
        return;
      }
      res.setHeader("Cache-Control", "no-store");
      const text = aggregator ? askPrimary() : register.metrics();
      text.then(
        (body) => void res.type(register.contentType).send(body),
        (error: unknown) =>
          void res
            .status(503)
            .type("text/plain")
            .send(`Metrics unavailable: ${error instanceof Error ? error.message : "unknown error"}\n`),
      );
    },
  };
}

function digest(value: string) {
  return crypto.createHash("sha256").update(value).digest();
}

let nextRequest = 0;
const waiting = new Map<number, { resolve(text: string): void; reject(error: Error): void }>();

/** A worker's scrape: the primary gathers every worker's registry (answerMetricsRequests below). */
function askPrimary(): Promise<string> {
  if (waiting.size === 0) process.on("message", onAnswer);
  const id = nextRequest++;
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => settle(id, new Error("the primary did not answer in time")), 10_000);
    waiting.set(id, {
      resolve: (text) => (clearTimeout(timer), resolve(text)),
      reject: (error) => (clearTimeout(timer), reject(error)),
    });
    process.send!({ type: REQUEST, id });
  });
}

function onAnswer(message: unknown) {
  const answer = message as { type?: string; id?: number; text?: string; error?: string } | null;
  if (answer?.type !== ANSWER || typeof answer.id !== "number") return;
  settle(answer.id, answer.error !== undefined ? new Error(answer.error) : (answer.text ?? ""));
}

function settle(id: number, result: string | Error) {
  const request = waiting.get(id);
  if (!request) return;
  waiting.delete(id);
  if (waiting.size === 0) process.off("message", onAnswer);
  if (result instanceof Error) request.reject(result);
  else request.resolve(result);
}

/** In the primary of a cluster: answers a worker's scrape with every worker's metrics, aggregated. */
export function answerMetricsRequests() {
  const aggregator = new AggregatorRegistry();
  cluster.on("message", (worker, message: { type?: string; id?: number } | null) => {
    if (message?.type !== REQUEST) return;
    aggregator.clusterMetrics().then(
      (text) => worker.isConnected() && worker.send({ type: ANSWER, id: message.id, text }),
      (error: Error) => worker.isConnected() && worker.send({ type: ANSWER, id: message.id, error: error.message }),
    );
  });
}

type RouteNode = { id: string; path?: string; caseSensitive?: boolean } & ({ index: true; children?: undefined } | { index?: false; children: RouteNode[] });

/**
 * A request path → its route pattern (`/dashboard/orders/:orderId`), matched as Remix matches it
 * (single-fetch `.data` requests count as their page). Paths are remembered up to a bound, so the
 * hot paths (the landing page, the API's lists) are one Map look-up.
 */
export function createRouteLabeler(build: ServerBuild) {
  const nodes = new Map<string, RouteNode>();
  for (const route of Object.values(build.routes)) {
    if (!route) continue;
    const common = { id: route.id, path: route.path, caseSensitive: route.caseSensitive };
    nodes.set(route.id, route.index ? { ...common, index: true } : { ...common, children: [] });
  }
  const roots: RouteNode[] = [];
  for (const route of Object.values(build.routes)) {
    if (!route) continue;
    const node = nodes.get(route.id)!;
    const parent = route.parentId ? nodes.get(route.parentId) : undefined;
    (parent?.children ?? roots).push(node);
  }
  const patterns = new Map<string, string>();
  const patternOf = (id: string): string => {
    let pattern = patterns.get(id);
    if (pattern === undefined) {
      const parts: string[] = [];
      for (let route: ServerBuild["routes"][string] | undefined = build.routes[id]; route; route = route.parentId ? build.routes[route.parentId] : undefined) {
        if (route.path) parts.unshift(route.path);
      }
      pattern = "/" + parts.join("/");
      patterns.set(id, pattern);
    }
    return pattern;
  };

  const known = new Map<string, string>();
  const KNOWN_LIMIT = 2000;
  const labeler = (url: string): string => {
    const queryAt = url.indexOf("?");
    let pathname = queryAt === -1 ? url : url.slice(0, queryAt);
    let label = known.get(pathname);
    if (label !== undefined) return label;
    const key = pathname;
    if (pathname.startsWith("/assets/")) label = STATIC_ROUTE;
    else {
      if (pathname === "/_root.data") pathname = "/";
      else if (pathname.endsWith(".data")) pathname = pathname.slice(0, -5);
      const matches = matchRoutes(roots, pathname);
      const last = matches?.at(-1) as { route: RouteNode } | undefined;
      // Only the root or the catch-all matched: no page has this path.
      const pattern = last && last.route.id !== "root" ? patternOf(last.route.id) : "/*";
      label = pattern === "/*" ? UNMATCHED_ROUTE : pattern;
    }
    if (known.size >= KNOWN_LIMIT) known.clear();
    known.set(key, label);
    return label;
  };
  return Object.assign(labeler, { patternOf });
}
