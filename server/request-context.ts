import { AsyncLocalStorage } from "node:async_hooks";
import crypto from "node:crypto";
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

/** A request's id: the caller's `X-Request-Id` when it is a plain token (a proxy's), else a new one. */
export function requestIdFrom(header: string | string[] | undefined): string {
  return typeof header === "string" && /^[\w-]{1,64}$/.test(header) ? header : crypto.randomUUID();
}
