import { AsyncLocalStorage } from "node:async_hooks";
import { remember } from "@epic-web/remember";

/**
 * The request being served, for code that has no Request at hand: the process-level error
 * handlers (an unhandled rejection carries the async context it was created in) and logs.
 * One instance per process (server.ts and the Remix build share it through `remember`).
 */
export const requestContext = remember("request-context", () => new AsyncLocalStorage<{ requestId: string }>());

export function currentRequestId(): string | undefined {
  return requestContext.getStore()?.requestId;
}
