import crypto from "node:crypto";
import type http from "node:http";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { createRequestHandler, type AppLoadContext, type ServerBuild } from "@remix-run/node";
import type express from "express";

import { preferredEncoding } from "~/web/compression.server";

import { requestIdFrom } from "./request-context";

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

interface Page {
  headers: [string, string][];
  identity: Buffer;
  gzip: Buffer;
  br: Buffer;
}

interface Generation {
  at: number;
  nonce: string;
  page: Promise<Page | null>;
  /** The page once rendered, for the synchronous fast path. */
  ready?: Page | null;
  /**
   * Every header the Express pipeline (helmet's CSP with this generation's nonce, and the rest) put on
   * a hit of this generation, less the per-request ones: the fast path replays them.
   */
  wireHeaders?: http.OutgoingHttpHeaders;
}

const PER_REQUEST = new Set(["x-request-id", "content-length", "content-encoding", "date", "connection", "keep-alive", "transfer-encoding"]);

/**
 * The landing page is the same for every signed-out visitor. It is rendered at most once per
 * TTL, compressed once (gzip and brotli), and served from memory. All visitors of one
 * generation share its CSP nonce: the page holds no visitor input, and the nonce still rotates
 * with every render. Visitors with a cookie or a query string get a fresh render.
 */
export function createLandingCache(build: ServerBuild, options: { appUrl: string; ttlMs?: number }) {
  const handle = createRequestHandler(build, "production");
  const ttl = options.ttlMs ?? 10_000;
  let generation: Generation | undefined;

  const render = async (context: AppLoadContext): Promise<Page | null> => {
    const response = await handle(new Request(`${options.appUrl}/`, { headers: { Accept: "text/html" } }), context);
    // A page with a section that failed to load (Cache-Control: no-store) is not kept either.
    if (response.status !== 200 || response.headers.has("Set-Cookie") || /no-store/.test(response.headers.get("Cache-Control") ?? "")) return null;
    const identity = Buffer.from(await response.arrayBuffer());
    const headers = [...response.headers.entries()].filter(([name]) => name !== "content-length" && name !== "content-encoding");
    const [gz, br] = await Promise.all([gzip(identity, { level: 9 }), brotli(identity, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } })]);
    return { headers, identity, gzip: gz, br };
  };

  const current = (context: Omit<AppLoadContext, "cspNonce">) => {
    if (!generation || Date.now() - generation.at > ttl) {
      const nonce = crypto.randomBytes(16).toString("base64");
      const page = render({ ...context, cspNonce: nonce } as AppLoadContext).catch(() => null);
      const fresh: Generation = { at: Date.now(), nonce, page };
      void page.then((rendered) => (fresh.ready = rendered));
      generation = fresh;
    }
    return generation;
  };

  const cacheable = (req: express.Request) =>
    (req.method === "GET" || req.method === "HEAD") && req.path === "/" && !req.headers.cookie && Object.keys(req.query).length === 0;

  const send = (page: Page, acceptEncoding: string | undefined, head: boolean, res: http.ServerResponse) => {
    const encoding = preferredEncoding(acceptEncoding);
    const body = encoding === "br" ? page.br : encoding === "gzip" ? page.gzip : page.identity;
    if (encoding) res.setHeader("Content-Encoding", encoding);
    res.setHeader("Vary", "Accept-Encoding");
    res.setHeader("Content-Length", body.length);
    res.setHeader("X-Landing-Cache", "hit");
    res.statusCode = 200;
    res.end(head ? undefined : body);
  };

  return {
    /**
     * Before Express: a signed-out visitor's `GET /` answered from memory with the headers the
     * pipeline gave the first hit of this generation (same CSP nonce), and a fresh request id. Only
     * once a generation is rendered and has gone through Express once; otherwise false.
     */
    handleFast(req: http.IncomingMessage, res: http.ServerResponse): boolean {
      if ((req.method !== "GET" && req.method !== "HEAD") || req.url !== "/" || req.headers.cookie !== undefined) return false;
      const entry = generation;
      if (!entry?.ready || !entry.wireHeaders || Date.now() - entry.at > ttl) return false;
      const requestId = requestIdFrom(req.headers["x-request-id"]);
      for (const [name, value] of Object.entries(entry.wireHeaders)) if (value !== undefined) res.setHeader(name, value);
      res.setHeader("X-Request-Id", requestId);
      send(entry.ready, req.headers["accept-encoding"], req.method === "HEAD", res);
      return true;
    },
    /** The nonce this request's CSP header must carry. */
    nonceFor(req: express.Request, context: Omit<AppLoadContext, "cspNonce">): string | null {
      return cacheable(req) ? current(context).nonce : null;
    },
    middleware: ((req, res, next) => {
      if (!cacheable(req)) return next();
      const entry = generation;
      if (!entry || entry.nonce !== res.locals.cspNonce) return next();
      entry.page.then((page) => {
        if (!page) return next();
        for (const [name, value] of page.headers) res.setHeader(name, value);
        res.setHeader("Vary", "Accept-Encoding");
        if (!entry.wireHeaders && !res.getHeader("Connection")) {
          entry.wireHeaders = Object.fromEntries(Object.entries(res.getHeaders()).filter(([name]) => !PER_REQUEST.has(name)));
        }
        send(page, req.headers["accept-encoding"], req.method === "HEAD", res);
      }, next);
    }) as express.RequestHandler,
  };
}
