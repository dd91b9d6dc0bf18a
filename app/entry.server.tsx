import { Writable } from "node:stream";
import { type AppLoadContext, type EntryContext, type HandleErrorFunction } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { renderToPipeableStream } from "react-dom/server";

import { InlineStylesProvider } from "~/components/inline-styles";
import { NonceProvider } from "~/components/nonce";
import inlineCss from "~/styles/tailwind.css?inline";

import "~/models/backlog-metrics.server";

import { isDatabaseUnavailable } from "~/utils/db.server";
import { isBodyLimitError } from "~/web/body-limit.server";
import { COMPRESSION_THRESHOLD, compressWhole, preferredEncoding } from "~/web/compression.server";
import { deferHydrationMarkup } from "~/web/deferred-hydration.server";

import { logger } from "./utils/logger.server";

// The Express server (server.ts) takes these from the build, so it and the routes share one
// set of singletons (database, Redis, Socket.IO).
export { boot, shutdown } from "~/web/boot.server";
export { attachSocketServer } from "./realtime/socket.server";
/** For server/page-cache.ts: the data's generation, from the build's own copies of the database and Redis. */
export { followDataGeneration } from "~/utils/data-generation.server";

const ABORT_DELAY = 5_000;

/** Document requests whose loaders met a database that is away: the error page goes out as 503. */
const databaseUnavailable = new WeakSet<Request>();

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = loadContext?.cspNonce ?? "";
  // The body guard of server.ts has answered 413 already and this answer is dropped: skip the render.
  if (bodyRefused(remixContext)) return new Response(null, { status: 413 });
  if (databaseUnavailable.has(request)) responseStatusCode = 503;
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <InlineStylesProvider value={import.meta.env.DEV ? null : inlineCss}>
          <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
        </InlineStylesProvider>
      </NonceProvider>,
      {
        nonce,
        // The document is sent whole, once everything has rendered (decision 322): no route defers
        // data, so nothing arrives later, and one body costs one compression call and one write.
        onShellReady() {
          shellRendered = true;
        },
        onAllReady() {
          const chunks: Buffer[] = [];
          const collector = new Writable({
            // React ends its destination again when it closes, which on a finished stream makes an
            // error with a stack trace for nothing (0.4 % of a page's CPU): the collector never closes.
            emitClose: false,
            write(chunk: Buffer, _encoding, callback) {
              chunks.push(chunk);
              callback();
            },
            final(callback) {
              clearTimeout(abortTimer);
              callback();
              // Decoded once, whole: no character is ever split between two pieces.
              const html = Buffer.concat(chunks).toString("utf8");
              // Production: the hydration scripts wait for the first paint (web/deferred-hydration.server.ts).
              const body = Buffer.from(import.meta.env.DEV ? html : (deferHydrationMarkup(html) ?? html));
              responseHeaders.set("Content-Type", "text/html; charset=utf-8");
              resolve(wholeResponse(request, body, responseHeaders, responseStatusCode));
            },
          });
          pipe(collector);
        },
        onShellError(error: unknown) {
          clearTimeout(abortTimer);
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) logger.error({ err: error }, "render error");
        },
      },
    );
    // A render still waiting after ABORT_DELAY is cut short: what has not rendered goes out as its
    // fallback, for the browser to render. The timer goes once the document is whole: left running,
    // it kept every finished render (its loaders' data and React's state) alive for the whole delay.
    const abortTimer = setTimeout(abort, ABORT_DELAY);
  });
}

/**
 * A whole document as it goes out: compressed here when the client takes it and it is long enough
 * (compression() in server.ts passes an answer that already has its encoding), sent with its length.
 */
async function wholeResponse(request: Request, body: Buffer, headers: Headers, status: number): Promise<Response> {
  headers.append("Vary", "Accept-Encoding");
  const encoding = body.length >= COMPRESSION_THRESHOLD ? preferredEncoding(request.headers.get("accept-encoding")) : null;
  const out = encoding ? await compressWhole(body, encoding) : body;
  if (encoding) headers.set("Content-Encoding", encoding);
  headers.set("Content-Length", String(out.length));
  return new Response(new Uint8Array(out), { headers, status });
}

function bodyRefused(context: EntryContext) {
  return Object.values(context.staticHandlerContext.errors ?? {}).some(
    (error) =>
      isBodyLimitError(error) ||
      (isRouteErrorResponse(error) && error.status === 413 && (error.data as { code?: string } | null)?.code === "PAYLOAD_TOO_LARGE"),
  );
}

export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted) return;
  if (error instanceof Response) return;
  // The body guard of server.ts already answered 413 and stopped the body.
  if (isBodyLimitError(error)) return;
  // A database restart costs the request (503), not an error report per request.
  if (isDatabaseUnavailable(error)) {
    databaseUnavailable.add(request);
    return void logger.warn({ err: error, url: request.url }, "database unavailable");
  }
  // A method a route does not take (405) or a path no route matches (404): the client's mistake, not ours.
  if (isClientRoutingError(error)) return void logger.info({ url: request.url, method: request.method, reason: (error as Error).message }, "refused request");
  logger.error({ err: error, url: request.url }, "unhandled route error");
};

/** The errors Remix's router makes for a request no route handles (it answers 404 or 405 itself). */
function isClientRoutingError(error: unknown): boolean {
  return (
    error instanceof Error &&
    /^(?:You made an? \w+ request to ".*" but did not provide an? `(?:action|loader)` for route|Invalid request method "|No route matches URL ")/s.test(
      error.message,
    )
  );
}
