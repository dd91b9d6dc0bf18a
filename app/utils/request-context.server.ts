import { AsyncLocalStorage } from "node:async_hooks";
import { remember } from "@epic-web/remember";

/** What the server knows of the HTTP request being served, for code that has no Request at hand. */
export interface RequestScope {
  requestId: string;
  /** The HTTP method as it arrived: a document POST runs its loaders with GET Requests of their own. */
  method: string;
  /** Answers read once for the whole request (oncePerRequest). */
  memo?: Map<string, unknown>;
  /** Set when this answer must not be answered again from memory (server/page-cache.ts): see answerNotReusable. */
  notReusable?: boolean;
}

/**
 * The request being served: the process-level error handlers (an unhandled rejection carries the
 * async context it was created in), logs, and reads shared by a document's loaders. One instance per
 * process (server.ts and the Remix build share it through `remember`).
 */
export const requestContext = remember("request-context", () => new AsyncLocalStorage<RequestScope>());

/**
 * This request's answer must be rendered afresh for the next request too: it shows a section that
 * failed to load (a Retry must retry), or carries a value meant for one page view (a form's
 * idempotency key). Outside a server request, nothing to do.
 */
export function answerNotReusable() {
  const scope = requestContext.getStore();
  if (scope) scope.notReusable = true;
}

export function currentRequestId(): string | undefined {
  return requestContext.getStore()?.requestId;
}

const perRequestObject = new WeakMap<Request, Map<string, unknown>>();

/**
 * `read()`'s answer, computed once for the HTTP request behind `request`. Remix hands every loader
 * of a document its own Request object, so the root, the layout and the page would each read the
 * identity (and staff's unread counts) again; a reading request (GET, HEAD) shares one answer among
 * them. A request that writes (an action, then its loaders) shares nothing across its Request
 * objects: the action may have changed what a loader reads. Outside a server request (tests,
 * sockets) the Request object itself is the scope.
 */
export function oncePerRequest<T>(request: Request, key: string, read: () => T): T {
  const scope = requestContext.getStore();
  let memo: Map<string, unknown> | undefined;
  if (scope && (scope.method === "GET" || scope.method === "HEAD")) {
    memo = scope.memo ??= new Map();
  } else {
    memo = perRequestObject.get(request);
    if (!memo) perRequestObject.set(request, (memo = new Map()));
  }
  if (memo.has(key)) return memo.get(key) as T;
  const answer = read();
  memo.set(key, answer);
  return answer;
}
