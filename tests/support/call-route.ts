import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";

import { BASE_URL, freshContext, type LoadContext } from "./requests";

/**
 * The one harness for calling a loader or action as Remix does: a real Request, the load context the
 * Express adapter passes, and the outcome settled into one shape whether the route returned or threw a
 * Response (a redirect, a 4xx), returned Remix's `data(value, init)` or a plain value.
 */
export type RouteArgs = LoaderFunctionArgs & ActionFunctionArgs;
type Handler = (args: RouteArgs) => unknown;

export type Settled = {
  status: number;
  headers: Headers;
  /** The redirect target, if any. */
  location: string | null;
  /** The value a loader or action returned (`data()`'s value or the plain object); null for a Response. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each test reads the fields of its own route
  data: any;
  /** The outcome as one Response (a value becomes its JSON body). */
  response: Response;
};

type DataWithInit = { type: "DataWithResponseInit"; data: unknown; init: ResponseInit | null };
const isData = (value: unknown): value is DataWithInit => !!value && typeof value === "object" && (value as { type?: unknown }).type === "DataWithResponseInit";

function settled(value: unknown): Settled {
  if (value instanceof Response) return { status: value.status, headers: value.headers, location: value.headers.get("Location"), data: null, response: value };
  const [data, init] = isData(value) ? [value.data, value.init ?? undefined] : [value, undefined];
  const response = Response.json(data, init);
  return { status: response.status, headers: new Headers(init?.headers), location: null, data, response };
}

/** Runs anything that calls a route and settles its outcome; errors other than a thrown Response propagate. */
export async function settle(run: () => unknown): Promise<Settled> {
  try {
    return settled(await run());
  } catch (thrown) {
    if (thrown instanceof Response) return settled(thrown);
    throw thrown;
  }
}

/** Calls `handler` with `request` (a path is a GET on BASE_URL), `params` and a load context (a fresh client address by default). */
export function callRoute(
  handler: Handler,
  request: Request | string,
  { params = {}, context = freshContext() }: { params?: Record<string, string>; context?: LoadContext } = {},
): Promise<Settled> {
  const req = typeof request === "string" ? new Request(BASE_URL + request) : request;
  return settle(() => handler({ request: req, params, context } as RouteArgs));
}
