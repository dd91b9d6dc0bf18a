import { logger } from "~/utils/logger.server";

import { currentRequestId } from "./request-context";

/*
 * What a node does with an error nobody caught (docs/decisions/061-health-and-process-policy.md):
 * - an unhandled promise rejection is logged (with the request id when one was being served)
 *   and the node keeps serving: one missed `.catch` must not cut every socket and request of
 *   the node, and a rejected promise leaves no half-run synchronous code behind;
 * - an uncaught exception is logged as fatal and the node drains (no new connections, requests
 *   in flight finish, at most 10 s) and exits 1 for its supervisor to replace it: a throw that
 *   escaped synchronous code may have left shared state half-changed.
 */

type DrainAndExit = (reason: string, code: number) => void;
let unhandled = 0;

export function installProcessPolicy(options: { drainAndExit: DrainAndExit }) {
  process.on("unhandledRejection", (reason) => onUnhandledRejection(reason));
  process.on("uncaughtException", (error, origin) => onUncaughtException(error, origin, options.drainAndExit));
}

export function onUnhandledRejection(reason: unknown) {
  unhandled += 1;
  logger.error({ err: reason, requestId: currentRequestId(), unhandledRejections: unhandled }, "unhandled promise rejection: serving on");
}

export function onUncaughtException(error: Error, origin: string, drainAndExit: DrainAndExit) {
  logger.fatal({ err: error, origin, requestId: currentRequestId() }, "uncaught exception: draining and exiting");
  drainAndExit("uncaughtException", 1);
}

/** How many rejections went unhandled since boot (diagnostics). */
export function unhandledRejectionCount() {
  return unhandled;
}
