import cluster from "node:cluster";
import crypto from "node:crypto";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createRequestHandler } from "@remix-run/express";
import type { ServerBuild } from "@remix-run/node";
import { createAdapter as createClusterAdapter } from "@socket.io/cluster-adapter";
import compression from "compression";
import express from "express";
import helmet from "helmet";
import { pinoHttp } from "pino-http";

import type * as EntryModule from "./app/entry.server";
import { env } from "./app/utils/env.server";
import { errorBody, isApiPath } from "./app/utils/http.server";
import { httpSerializers, logger } from "./app/utils/logger.server";
import { bodyLimit, bodyLimitErrors } from "./app/web/body-limit.server";
import { answerClientError } from "./app/web/client-error.server";
import { BROTLI_PER_REQUEST } from "./app/web/compression.server";
import { privateCache } from "./app/web/private-cache.server";
import { forgeryGuard } from "./app/web/same-origin.server";
import { createApiFastPath } from "./server/api-fast-path";
import { createAssetServer } from "./server/asset-server";
import { runPrimary } from "./server/cluster";
import { createLandingCache } from "./server/landing-cache";
import { answerMetricsRequests, createMetrics, STATIC_ROUTE } from "./server/metrics";
import { createPageCache } from "./server/page-cache";
import { installProcessPolicy } from "./server/process-policy";
import { requestContext, requestIdFrom } from "./server/request-context";
import { routePollingToWorkers } from "./server/worker-polling";

/*
 * One Express app and one http.Server: Remix (Vite middleware in dev, the build in production)
 * and Socket.IO on the same port. Everything app-specific comes from the Remix server build's
 * entry module, so the server and the routes share one copy of the database and Redis handles.
 */

if (cluster.isPrimary && env.webConcurrency > 1) {
  // A scrape reaches one worker, which asks the primary to gather them all.
  if (env.metricsToken) answerMetricsRequests();
  runPrimary(env.webConcurrency, { clusterAdapter: !env.redisUrl });
} else {
  await startNode();
}

/** One node: the whole app in this process (a worker when WEB_CONCURRENCY > 1). */
async function startNode() {
  type Entry = typeof EntryModule;

  // Before anything can fail in the background (Redis absent at boot, a dropped database connection).
  let drainAndExit: (reason: string, code: number) => void = (_reason, code) => process.exit(code);
  installProcessPolicy({ drainAndExit: (reason, code) => drainAndExit(reason, code) });

  const vite =
    env.nodeEnv === "development" ? await import("vite").then((v) => v.createServer({ server: { middlewareMode: true }, appType: "custom" })) : undefined;

  // In production this file runs as <build>/server.js, beside server/ and client/.
  const BUILD_DIR = path.dirname(fileURLToPath(import.meta.url));
  const BUILD_PATH = path.join(BUILD_DIR, "server/index.js");
  const loadPlainBuild = async () => (vite ? await vite.ssrLoadModule("virtual:remix/server-build") : await import(BUILD_PATH)) as ServerBuild;
  // With traces on, each loader and action runs in a span of its own (server/tracing.ts).
  const loadBuild = env.otlpEndpoint ? async () => (await import("./server/tracing")).traceBuild(await loadPlainBuild()) : loadPlainBuild;

  const build = await loadBuild();
  const entry = build.entry.module as Entry;
  const started = await entry.boot();

  const landingCache = vite ? undefined : createLandingCache(build, { appUrl: env.appUrl });
  // A signed-in page asked again by the same browser while no data has changed anywhere (decision 326).
  const data = vite || env.pageCacheMs === 0 ? undefined : entry.followDataGeneration();
  const pageCache = data && createPageCache({ generation: () => data.current(), ttlMs: env.pageCacheMs });
  // Nothing is measured unless someone may read it (decision 274).
  const metrics = env.metricsToken ? createMetrics(build, { token: env.metricsToken }) : undefined;

  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", env.trustProxy);

  app.use((req, res, next) => {
    res.locals.requestId = requestIdFrom(req.headers["x-request-id"]);
    res.locals.cspNonce = isApiPath(req.path)
      ? ""
      : (landingCache?.nonceFor(req, { requestId: res.locals.requestId, clientIp: req.ip ?? "unknown" }) ?? crypto.randomBytes(16).toString("base64"));
    res.setHeader("X-Request-Id", res.locals.requestId);
    // Draining: tell a proxy not to reuse this connection, so it sends the next request elsewhere.
    if (stopping) res.setHeader("Connection", "close");
    // Whatever this request starts (including a rejection nobody handles) logs with its id.
    requestContext.run({ requestId: res.locals.requestId as string, method: req.method }, next);
  });

  app.use(
    pinoHttp({
      logger,
      genReqId: (_req, res) => (res as express.Response).locals.requestId,
      serializers: httpSerializers,
      autoLogging: { ignore: (req) => req.url?.startsWith("/assets/") === true || req.url === "/healthz" },
    }),
  );

  // HTML pages carry a CSP nonce for their scripts; JSON answers (/api) carry none and need none.
  const pageHeaders = securityHeaders(env.secureCookies, !!vite, true);
  const apiHeaders = securityHeaders(env.secureCookies, !!vite, false);
  app.use((req, res, next) => (isApiPath(req.path) ? apiHeaders : pageHeaders)(req, res, next));

  app.use(compression({ brotli: BROTLI_PER_REQUEST }));
  if (metrics) app.get("/metrics", metrics.handler);

  if (vite) {
    app.use(vite.middlewares);
  } else {
    // Build files are answered before Express (createAssetServer below); an unknown /assets/ path is a 404 here.
    app.use("/assets", (_req, res) => void res.status(404).type("text/plain").send("Not found"));
  }

  const getLoadContext = (req: express.Request, res: express.Response) => ({
    requestId: res.locals.requestId as string,
    cspNonce: res.locals.cspNonce as string,
    clientIp: req.ip ?? "unknown",
  });

  // Forged state changes (another origin riding the session cookie) and `?_data` stop here, for every route.
  app.use(forgeryGuard);
  // Bodies are counted before Remix reads them: over the limit, a 413.
  app.use(bodyLimit);
  app.use(privateCache);
  if (landingCache) app.use(landingCache.middleware);

  // A malformed percent-encoding in an /api path is the documented 400 whatever the method, before
  // Remix matches a route (which would answer 405 to a method the route does not take).
  app.use((req, res, next) => {
    if (!isApiPath(req.path) || decodablePath(req.path)) return next();
    res.status(400).set("Cache-Control", "no-store");
    res.json(errorBody("The URL's path is not valid percent-encoding.", "MALFORMED_PATH", res.locals.requestId as string));
  });

  if (pageCache) app.use(pageCache.middleware);

  // A RegExp, not "*": Express would decode the path as a parameter and answer HTML on bad percent-encoding.
  app.all(
    /.*/,
    createRequestHandler({
      build: vite ? loadBuild : build,
      mode: vite ? "development" : "production",
      getLoadContext,
    }),
  );
  app.use(bodyLimitErrors);

  // Hashed assets (precompressed at build time) and the signed-out landing page are answered from
  // memory before Express; everything else, and everything while draining, goes through it.
  const assets = vite ? undefined : createAssetServer(path.join(BUILD_DIR, "client/assets"));
  const publicFiles = vite ? undefined : createAssetServer(path.join(BUILD_DIR, "client"), { prefix: "/", cacheControl: "public, max-age=3600" });
  // The JSON API's reads skip Express and Remix: apiRoute does the rest (decision 160).
  // The client address exactly as Express computes req.ip (its getter, with this app's trust proxy).
  const expressIp = Object.getOwnPropertyDescriptor(app.request, "ip")?.get;
  const clientIp = (req: http.IncomingMessage) =>
    (expressIp?.call({ app, headers: req.headers, socket: req.socket, connection: req.socket }) as string | undefined) ?? "unknown";
  const api = vite
    ? undefined
    : createApiFastPath(build, { headers: staticHeadersOf(apiHeaders), clientIp, appUrl: env.appUrl, onRoute: metrics?.labelRouteId });
  const httpServer = http.createServer((req, res) => {
    metrics?.time(req, res);
    if (!stopping) {
      if (assets?.handle(req, res) || publicFiles?.handle(req, res)) return void metrics?.label(res, STATIC_ROUTE);
      if (landingCache?.handleFast(req, res) || pageCache?.handleFast(req, res, () => app(req, res)) || api?.handle(req, res)) return;
    }
    app(req, res);
  });
  httpServer.on("clientError", answerClientError);
  const io = entry.attachSocketServer(httpServer);
  if (cluster.isWorker) {
    // Workers without Redis broadcast to each other through the primary.
    if (!env.redisUrl) io.adapter(createClusterAdapter());
    // A long-polling session's requests reach the worker that holds it, whichever worker accepted them.
    const closePolling = await routePollingToWorkers(io.engine, cluster.worker!.id, process.ppid);
    httpServer.once("close", closePolling);
  }

  httpServer.listen(env.port, env.host, () => {
    const address = httpServer.address();
    const port = typeof address === "object" && address ? address.port : env.port;
    logger.info({ port, database: started.database }, "server listening");
    if (cluster.isWorker && cluster.worker?.id !== 1) return;
    console.log(`\nBrandLift is running at ${env.appUrl.replace(/:\d+$/, `:${port}`)}`);
    if (started.demoLogins.length) {
      console.log("Demo sign-ins (embedded database only):");
      for (const login of started.demoLogins) console.log(`  ${login.role.padEnd(4)}  ${login.email}  /  ${login.password}`);
    }
  });

  let stopping = false;
  async function stop(signal: string, code = 0) {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down");
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    // io.close() disconnects every socket and closes the http.Server: no new connections, while
    // requests in flight finish before "close" fires.
    const closed = new Promise<void>((resolve) => httpServer.once("close", () => resolve()));
    io.close();
    // Keep-alive connections (a proxy's) go idle one by one as their last response ends.
    const idle = setInterval(() => httpServer.closeIdleConnections(), 50);
    httpServer.closeIdleConnections();
    await closed;
    clearInterval(idle);
    await vite?.close();
    await entry.shutdown();
    logger.info("stopped");
    process.exit(code);
  }
  drainAndExit = (reason, code) => void stop(reason, code);
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}

function securityHeaders(secureCookies: boolean, development: boolean, withNonce: boolean) {
  const stripeCheckout = "https://checkout.stripe.com";
  const nonce = (_req: unknown, res: unknown) => `'nonce-${(res as express.Response).locals.cspNonce}'`;
  return helmet({
    contentSecurityPolicy: {
      reportOnly: development,
      useDefaults: false,
      directives: {
        "default-src": ["'self'"],
        "script-src": ["'self'", ...(withNonce ? [nonce] : [])],
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:", "blob:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'", ...(development ? ["ws:"] : [])],
        "form-action": ["'self'", stripeCheckout],
        "frame-ancestors": ["'none'"],
        "base-uri": ["'self'"],
        "object-src": ["'none'"],
        "upgrade-insecure-requests": secureCookies ? [] : null,
      },
    },
    strictTransportSecurity: secureCookies ? { maxAge: 31536000, includeSubDomains: true } : false,
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    xFrameOptions: { action: "deny" },
    crossOriginEmbedderPolicy: false,
  });
}

/** The headers a header-only middleware (helmet without a nonce) sets, computed once. */
function staticHeadersOf(middleware: express.RequestHandler): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    locals: {},
    setHeader: (name: string, value: string) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
    getHeader: (name: string) => headers[name.toLowerCase()],
  };
  // A stand-in with only the header calls helmet makes; express.Response is the whole of it.
  middleware({ headers: {}, method: "GET", url: "/api", path: "/api" } as express.Request, res as unknown as express.Response, () => {});
  return headers;
}

function decodablePath(path: string) {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}
