import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable, type AppLoadContext, type EntryContext, type HandleErrorFunction } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";

import { InlineStylesProvider } from "~/components/inline-styles";
import { NonceProvider } from "~/components/nonce";
import inlineCss from "~/styles/tailwind.css?inline";

import "~/models/backlog-metrics.server";

import { isDatabaseUnavailable } from "~/utils/db.server";
import { isBodyLimitError } from "~/web/body-limit.server";
import { deferHydration } from "~/web/deferred-hydration.server";

import { logger } from "./utils/logger.server";

// The Express server (server.ts) takes these from the build, so it and the routes share one
// set of singletons (database, Redis, Socket.IO).
export { boot, shutdown } from "~/web/boot.server";
export { attachSocketServer } from "./realtime/socket.server";

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
  const waitForAll = isbot(request.headers.get("user-agent") ?? "") || remixContext.isSpaMode;
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
        [waitForAll ? "onAllReady" : "onShellReady"]() {
          shellRendered = true;
          // Production: the hydration scripts wait for the first paint (web/deferred-hydration.server.ts).
          const body = import.meta.env.DEV ? new PassThrough() : deferHydration();
          body.once("close", () => clearTimeout(abortTimer));
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }));
          pipe(body);
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
    // A render still streaming after ABORT_DELAY is cut short. The timer goes when the document has
    // been sent: left running, it kept every finished render (its loaders' data and React's state)
    // alive for the whole delay, and fired into an ended stream.
    const abortTimer = setTimeout(abort, ABORT_DELAY);
  });
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
