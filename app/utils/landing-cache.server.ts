import crypto from "node:crypto";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { createRequestHandler, type AppLoadContext, type ServerBuild } from "@remix-run/node";
import type express from "express";

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
}

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
    const [gz, br] = await Promise.all([
      gzip(identity, { level: 9 }),
      brotli(identity, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
    ]);
    return { headers, identity, gzip: gz, br };
  };

  const current = (context: Omit<AppLoadContext, "cspNonce">) => {
    if (!generation || Date.now() - generation.at > ttl) {
      const nonce = crypto.randomBytes(16).toString("base64");
      const page = render({ ...context, cspNonce: nonce } as AppLoadContext).catch(() => null);
      generation = { at: Date.now(), nonce, page };
    }
    return generation;
  };

  const cacheable = (req: express.Request) =>
    (req.method === "GET" || req.method === "HEAD") && req.path === "/" && !req.headers.cookie && Object.keys(req.query).length === 0;

  return {
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
        const encoding = req.acceptsEncodings(["br", "gzip", "identity"]);
        const body = encoding === "br" ? page.br : encoding === "gzip" ? page.gzip : page.identity;
        for (const [name, value] of page.headers) res.setHeader(name, value);
        if (encoding === "br" || encoding === "gzip") res.setHeader("Content-Encoding", encoding);
        res.setHeader("Vary", "Accept-Encoding");
        res.setHeader("Content-Length", body.length);
        res.setHeader("X-Landing-Cache", "hit");
        res.status(200).end(req.method === "HEAD" ? undefined : body);
      }, next);
    }) as express.RequestHandler,
  };
}
