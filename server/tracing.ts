import { register } from "node:module";
import type { ServerBuild } from "@remix-run/node";

/*
 * OpenTelemetry traces, loaded only with OTEL_EXPORTER_OTLP_ENDPOINT set (decision 275): server/start.ts
 * imports this module, and this module the SDK, before any module it instruments; without the
 * setting none of it is loaded. Spans: each HTTP request (and Express's middleware), each loader and
 * action by route id (traceBuild below), Redis commands and Socket.IO events, sent over OTLP/HTTP
 * (JSON). postgres.js and PGlite have no OpenTelemetry instrumentation (and drizzle's own hooks are
 * not wired in its release): traceQueries wraps drizzle's prepared queries so each query is a client
 * span `pg <verb>` with its SQL text (never its parameters) inside the loader's or action's span.
 */

let started = false;

export async function startTracing(endpoint: string) {
  if (started) return;
  started = true;
  // ES modules (the server, the Remix build and what they import) are instrumented through this hook.
  register("@opentelemetry/instrumentation/hook.mjs", import.meta.url);
  const [{ NodeSDK }, { OTLPTraceExporter }, { HttpInstrumentation }, { ExpressInstrumentation }, { IORedisInstrumentation }, { SocketIoInstrumentation }] =
    await Promise.all([
      import("@opentelemetry/sdk-node"),
      import("@opentelemetry/exporter-trace-otlp-http"),
      import("@opentelemetry/instrumentation-http"),
      import("@opentelemetry/instrumentation-express"),
      import("@opentelemetry/instrumentation-ioredis"),
      import("@opentelemetry/instrumentation-socket.io"),
    ]);
  const sdk = new NodeSDK({
    serviceName: "brandlift",
    traceExporter: new OTLPTraceExporter({ url: new URL("v1/traces", endpoint.endsWith("/") ? endpoint : `${endpoint}/`).toString() }),
    instrumentations: [
      new HttpInstrumentation({
        // The exporter's own requests, and health pings, are not traces of the product.
        ignoreOutgoingRequestHook: (request) => String(request.path ?? "").startsWith("/v1/traces"),
        ignoreIncomingRequestHook: (request) => request.url === "/healthz",
      }),
      new ExpressInstrumentation(),
      new IORedisInstrumentation(),
      new SocketIoInstrumentation(),
    ],
  });
  sdk.start();
  await traceQueries();
  // Spans still buffered go out before the process ends (server.ts exits after draining).
  process.once("beforeExit", () => void sdk.shutdown());
  for (const signal of ["SIGTERM", "SIGINT"] as const) process.prependListener(signal, () => void sdk.shutdown().catch(() => {}));
}

/** The build with every loader and action inside a span named by its route id. */
export async function traceBuild(build: ServerBuild): Promise<ServerBuild> {
  const { SpanStatusCode, trace } = await import("@opentelemetry/api");
  const tracer = trace.getTracer("brandlift-remix");
  const wrap = <A, R>(kind: "loader" | "action", routeId: string, fn: (args: A) => R) =>
    function traced(args: A) {
      return tracer.startActiveSpan(`${kind} ${routeId}`, { attributes: { "remix.route.id": routeId, "remix.handler": kind } }, async (span) => {
        try {
          return await fn(args);
        } catch (error) {
          // A thrown Response (a redirect, a 404) is an answer, not a failure.
          if (!(error instanceof Response)) {
            span.recordException(error as Error);
            span.setStatus({ code: SpanStatusCode.ERROR });
          }
          throw error;
        } finally {
          span.end();
        }
      });
    };
  const routes: ServerBuild["routes"] = {};
  for (const [id, route] of Object.entries(build.routes)) {
    if (!route) continue;
    const module = { ...route.module };
    if (module.loader) module.loader = wrap("loader", id, module.loader);
    if (module.action) module.action = wrap("action", id, module.action);
    routes[id] = { ...route, module };
  }
  return { ...build, routes };
}

/** Each query drizzle runs (postgres.js or PGlite) in a client span named by its SQL verb. */
async function traceQueries() {
  const [{ SpanKind, SpanStatusCode, trace }, postgresJs, pglite] = await Promise.all([
    import("@opentelemetry/api"),
    import("drizzle-orm/postgres-js/session"),
    import("drizzle-orm/pglite/session"),
  ]);
  const tracer = trace.getTracer("brandlift-db");
  const system = new Map<object, string>([
    [postgresJs.PostgresJsPreparedQuery.prototype, "postgresql"],
    [pglite.PglitePreparedQuery.prototype, "pglite"],
  ]);
  for (const [prototype, dbSystem] of system) {
    // The methods are wrapped by name, which the drivers' typed prototypes have no index for.
    const target = prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
    for (const method of ["execute", "all"] as const) {
      const original = target[method];
      if (typeof original !== "function") continue;
      target[method] = function traced(this: { queryString?: string }, ...args: unknown[]) {
        const text = this.queryString ?? "";
        const verb = /^\s*(\w+)/.exec(text)?.[1]?.toLowerCase() ?? "query";
        return tracer.startActiveSpan(
          `pg ${verb}`,
          { kind: SpanKind.CLIENT, attributes: { "db.system": dbSystem, "db.operation": verb, "db.statement": text.slice(0, 2000) } },
          async (span) => {
            try {
              return await original.apply(this, args);
            } catch (error) {
              span.recordException(error as Error);
              span.setStatus({ code: SpanStatusCode.ERROR });
              throw error;
            } finally {
              span.end();
            }
          },
        );
      };
    }
  }
}
