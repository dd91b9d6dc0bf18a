import crypto from "node:crypto";

export { currentRequestId, requestContext } from "~/utils/request-context.server";

/** A request's id: the caller's `X-Request-Id` when it is a plain token (a proxy's), else a new one. */
export function requestIdFrom(header: string | string[] | undefined): string {
  return typeof header === "string" && /^[\w-]{1,64}$/.test(header) ? header : crypto.randomUUID();
}
