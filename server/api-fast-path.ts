import type http from "node:http";
import zlib from "node:zlib";
import type { AppLoadContext, LoaderFunction, ServerBuild } from "@remix-run/node";

import { errorBody, isApiPath } from "~/utils/http.server";
import { logger, redactUrl } from "~/utils/logger.server";
import { BROTLI_PER_REQUEST, COMPRESSION_THRESHOLD, compressWhole, preferredEncoding } from "~/web/compression.server";
import { answersJson, isJsonAnswer, type JsonAnswer } from "~/web/json-answer.server";
import { PRIVATE_CACHE_CONTROL } from "~/web/private-cache.server";
import { forgeryRefusal } from "~/web/same-origin.server";

import { requestContext, requestIdFrom } from "./request-context";

/*
 * The JSON API's reads, answered before Express and Remix (decision 160). Every /api route is an
 * `apiRoute` (app/web/api.server.ts) that authenticates, authorizes, rate-limits, parses and answers
 * in the error shape by itself, so a GET needs none of the Express pipeline but its headers, which
 * are replayed here: the security headers as the pipeline computes them (no CSP nonce: only HTML
 * carries scripts), `private, no-store`, the request id, and compression as `compression()` does it.
 * Requests with a body, and routes without a loader, go through Express as before.
 */

interface CompiledRoute {
  id: string;
  segments: string[];
  splat: boolean;
  score: number;
  loader: LoaderFunction;
}

export interface ApiFastPathOptions {
  /** The security headers every answer carries (computed once from the pipeline's helmet). */
  headers: Record<string, string>;
  /** The client address as Express computes it (trust proxy honoured). */
  clientIp: (req: http.IncomingMessage) => string;
  appUrl: string;
  /** Told the route id of each request it answers (the metrics' route label). */
  onRoute?: (res: http.ServerResponse, routeId: string) => void;
}

const COMPRESSIBLE = /^(?:text\/|application\/(?:json|javascript|xml|[\w.+-]*\+(?:json|xml))|image\/svg\+xml)/i;

export function createApiFastPath(build: ServerBuild, options: ApiFastPathOptions) {
  const routes = compileRoutes(build);
  const origin = new URL(options.appUrl).origin;

  async function serve(req: http.IncomingMessage, res: http.ServerResponse, route: CompiledRoute, params: Record<string, string>, requestId: string) {
    const started = process.hrtime.bigint();
    const request = requestOnDemand(origin + req.url, req);
    const context: AppLoadContext = { requestId, cspNonce: "", clientIp: options.clientIp(req) };
    let response: Response;
    try {
      // An apiRoute answers a JSON success as text; another loader (methodNotAllowed) as Remix would have it.
      const args = { request, params, context };
      const result: unknown = answersJson(route.loader) ? await route.loader.answerJson(args) : await route.loader(args);
      if (isJsonAnswer(result)) {
        res.setHeader("X-Request-Id", requestId);
        await writeJson(req, res, result, options.headers);
        logCompleted(req, res, requestId, started);
        return;
      }
      response = result instanceof Response ? result : Response.json(result);
    } catch (error) {
      if (error instanceof Response) response = error;
      else {
        logger.error({ err: error, requestId, url: redactUrl(req.url ?? "") }, "unhandled API error");
        response = Response.json(errorBody("Something went wrong on our side. Please try again.", "INTERNAL_ERROR", requestId), { status: 500 });
      }
    }
    await write(req, res, response, options.headers, requestId);
    logCompleted(req, res, requestId, started);
  }

  return {
    /** Answers a GET or HEAD of /api without Express, or returns false to let Express have it. */
    handle(req: http.IncomingMessage, res: http.ServerResponse): boolean {
      const url = req.url ?? "";
      if (req.method !== "GET" && req.method !== "HEAD") return false;
      const queryAt = url.indexOf("?");
      const pathname = queryAt === -1 ? url : url.slice(0, queryAt);
      if (!isApiPath(pathname)) return false;
      // A GET with a body goes through the body limits of the pipeline; whatever the forgery check
      // refuses (a legacy `?_data` request) is answered by it there.
      if (req.headers["transfer-encoding"] !== undefined || (req.headers["content-length"] ?? "0") !== "0") return false;
      if (forgeryRefusal({ method: req.method, url, headers: req.headers })) return false;
      const matched = matchRoute(routes, pathname);
      // No route, or a malformed %-escape: Express and apiRoute answer it (one implementation).
      if (!matched) return false;
      options.onRoute?.(res, matched.route.id);
      const requestId = requestIdFrom(req.headers["x-request-id"]);
      requestContext.run({ requestId, method: req.method ?? "GET" }, () => {
        serve(req, res, matched.route, matched.params, requestId).catch((error: unknown) => {
          logger.error({ err: error, requestId }, "API fast path failed");
          if (!res.headersSent) res.writeHead(500);
          res.end();
        });
      });
      return true;
    },
  };
}

function logCompleted(req: http.IncomingMessage, res: http.ServerResponse, requestId: string, started: bigint) {
  if (!logger.isLevelEnabled("info")) return;
  const responseTime = Number(process.hrtime.bigint() - started) / 1e6;
  logger.info(
    { req: { id: requestId, method: req.method, url: redactUrl(req.url ?? "") }, res: { statusCode: res.statusCode }, responseTime },
    "request completed",
  );
}

/**
 * The Request a loader gets here: its URL, method and headers are at hand, and the Fetch `Request`
 * (undici's: its URL parsed, its headers copied and an AbortSignal made, 7 % of the process in a
 * profile of GET /api/services, decision 254) is made only if the loader reaches for anything else.
 * It is an instance of Request to whoever checks, and each member reads from the real one once made.
 */
export function requestOnDemand(url: string, req: http.IncomingMessage): Request {
  let headers: Headers | undefined;
  let real: Request | undefined;
  return new Proxy(Object.create(Request.prototype) as Request, {
    get(_target, property) {
      if (!real) {
        if (property === "url") return url;
        if (property === "method") return req.method;
        if (property === "headers") return (headers ??= incomingHeaders(req));
      }
      real ??= new Request(url, { method: req.method, headers: (headers ??= incomingHeaders(req)) });
      const value: unknown = Reflect.get(real, property, real);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(real) : value;
    },
  });
}

function incomingHeaders(req: http.IncomingMessage): Headers {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    // Pseudo-headers of HTTP/2 are not headers of the request.
    if (raw[i].charCodeAt(0) !== 58) headers.append(raw[i], raw[i + 1]);
  }
  return headers;
}

/** The route table of the build's /api resource routes (nested ones flattened), ranked as React Router ranks them. */
function compileRoutes(build: ServerBuild): CompiledRoute[] {
  const fullPath = (id: string | undefined): string => {
    const route = id ? build.routes[id] : undefined;
    if (!route || route.id === "root") return "";
    return [fullPath(route.parentId), route.path ?? ""].filter(Boolean).join("/");
  };
  const compiled: CompiledRoute[] = [];
  for (const route of Object.values(build.routes)) {
    if (!route || route.index) continue;
    const path = fullPath(route.id);
    if (!/^api(?:\/|$)/.test(path)) continue;
    const module = route.module as { loader?: LoaderFunction; default?: unknown };
    // A route with a screen is not a resource route: it needs Remix.
    if (!module.loader || module.default) continue;
    const segments = path.split("/").filter(Boolean);
    const splat = segments.at(-1) === "*";
    if (splat) segments.pop();
    const score = segments.reduce((sum, segment) => sum + (segment.startsWith(":") ? 3 : 10), segments.length + (splat ? 1 - 2 : 0));
    compiled.push({ id: route.id, segments: segments.map((s) => (s.startsWith(":") ? s : s.toLowerCase())), splat, score, loader: module.loader });
  }
  return compiled.sort((a, b) => b.score - a.score);
}

/** The first ranked route that matches (case-insensitive, params decoded); null for none or a bad %-escape. */
function matchRoute(routes: CompiledRoute[], pathname: string): { route: CompiledRoute; params: Record<string, string> } | null {
  let parts: string[];
  try {
    parts = pathname
      .split("/")
      .filter(Boolean)
      .map((part) => decodeURIComponent(part));
  } catch {
    return null;
  }
  const lower = parts.map((part) => part.toLowerCase());
  for (const route of routes) {
    if (parts.length < route.segments.length || (!route.splat && parts.length !== route.segments.length)) continue;
    const params: Record<string, string> = {};
    let ok = true;
    for (let i = 0; i < route.segments.length && ok; i++) {
      const segment = route.segments[i];
      if (segment.startsWith(":")) params[segment.slice(1)] = parts[i];
      else ok = segment === lower[i];
    }
    if (!ok) continue;
    if (route.splat) params["*"] = parts.slice(route.segments.length).join("/");
    return { route, params };
  }
  return null;
}

/*
 * Public reads answer the same bytes to everyone (the catalogue, the plans): the last few public
 * bodies' compressed forms are kept (never an answer to a request that carries a cookie or a
 * token), so a hot read is compressed once, not on every request. A JSON text kept whole
 * (json-answer.server.ts `lasting`) arrives as the same string every time, whose hash the engine
 * keeps, so its lookup costs no pass over the text; a body in bytes is keyed by those bytes.
 */
const recentlyCompressed = { br: new Map<string, Buffer>(), gzip: new Map<string, Buffer>() };
const RECENT_LIMIT = 32;
async function compressedShared(body: string | Buffer, encoding: "br" | "gzip"): Promise<Buffer> {
  // A JSON text never holds a raw NUL, so a key of bytes never meets a key of text.
  const key = typeof body === "string" ? body : `\0${body.toString("latin1")}`;
  const recent = recentlyCompressed[encoding];
  const known = recent.get(key);
  if (known) return known;
  const result = await compressWhole(Buffer.from(body), encoding);
  if (recent.size >= RECENT_LIMIT) recent.delete(recent.keys().next().value as string);
  recent.set(key, result);
  return result;
}

/** A whole body (JSON): compressed when it is long enough and the client takes it, sent with its length. */
async function endWhole(req: http.IncomingMessage, res: http.ServerResponse, body: string | Buffer, encoding: "br" | "gzip" | null) {
  const length = typeof body === "string" ? Buffer.byteLength(body) : body.length;
  if (!encoding || length < COMPRESSION_THRESHOLD) {
    res.setHeader("Content-Length", length);
    res.end(body);
    return;
  }
  const shareable = req.headers.authorization === undefined && req.headers.cookie === undefined && length <= 64 * 1024;
  const packed = await (shareable ? compressedShared(body, encoding) : compressWhole(Buffer.from(body), encoding));
  res.setHeader("Content-Encoding", encoding);
  res.setHeader("Content-Length", packed.length);
  res.end(packed);
}

/** Express's res.set adds the charset its mime table knows (UTF-8 for text and JSON): so do we. */
function withCharset(type: string) {
  return /;\s*charset=/i.test(type) || !/^text\/|^application\/(?:javascript|json)/i.test(type) ? type : `${type}; charset=utf-8`;
}

/** A JSON success as `write` would send the Response that apiRoute makes of it, byte for byte. */
async function writeJson(req: http.IncomingMessage, res: http.ServerResponse, answer: JsonAnswer, headers: Record<string, string>) {
  res.statusCode = answer.status;
  for (const name in headers) res.setHeader(name, headers[name]);
  res.setHeader("Cache-Control", PRIVATE_CACHE_CONTROL);
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  res.setHeader("Vary", "Accept-Encoding");
  if (req.method === "HEAD") {
    res.end();
    return;
  }
  await endWhole(req, res, answer.text, preferredEncoding(req.headers["accept-encoding"]));
}

async function write(req: http.IncomingMessage, res: http.ServerResponse, response: Response, headers: Record<string, string>, requestId: string) {
  res.statusCode = response.status;
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  for (const [name, value] of response.headers) {
    if (name === "set-cookie") continue;
    res.setHeader(name, name === "content-type" ? withCharset(value) : value);
  }
  const cookies = response.headers.getSetCookie();
  if (cookies.length) res.setHeader("Set-Cookie", cookies);
  res.setHeader("X-Request-Id", requestId);
  res.setHeader("Cache-Control", PRIVATE_CACHE_CONTROL);
  const head = req.method === "HEAD";
  const type = response.headers.get("Content-Type") ?? "";
  const compressible = COMPRESSIBLE.test(type) && !response.headers.has("Content-Encoding");
  if (compressible) res.setHeader("Vary", "Accept-Encoding");
  if (!response.body || head) {
    await response.body?.cancel();
    res.end();
    return;
  }
  const encoding = compressible ? preferredEncoding(req.headers["accept-encoding"]) : null;
  if (compressible && (encoding === null || /json/i.test(type))) {
    // A JSON answer is small and whole: buffered, compressed once, sent with its length.
    await endWhole(req, res, Buffer.from(await response.arrayBuffer()), encoding);
    return;
  }
  // Files and other streams go out as they come (compressed on the way when their type is text).
  const sink: NodeJS.WritableStream = encoding ? (encoding === "br" ? zlib.createBrotliCompress(BROTLI_PER_REQUEST) : zlib.createGzip()) : res;
  if (encoding) {
    res.setHeader("Content-Encoding", encoding);
    res.removeHeader("Content-Length");
    (sink as zlib.Gzip).pipe(res);
  }
  const reader = response.body.getReader();
  res.once("close", () => void reader.cancel().catch(() => {}));
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (!sink.write(value)) await new Promise<void>((resolve) => (sink as NodeJS.EventEmitter).once("drain", resolve));
    if (res.destroyed) return;
  }
  sink.end();
}
