import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";

import { createAccount as makeAccount, type Account } from "./factories";

/** Rows and callers for the dashboard's tests: customers, staff, orders and purchases, real Requests. */

export const BASE = "http://localhost";
export const context = { requestId: "test", cspNonce: "", clientIp: "127.0.0.1" };

/** Accounts, the catalogue and purchases come from tests/factories.ts. */
export { catalogue, createPurchase, type Account } from "./factories";

export function createAccount(role: "user" | "team" = "user", overrides: { name?: string; email?: string; disabledAt?: Date } = {}) {
  return makeAccount({ role, ...overrides });
}

type Auth = { bearer?: string; cookie?: string } | Account | null;

export function headersFor(auth: Auth, extra: Record<string, string> = {}) {
  const headers = new Headers(extra);
  if (!auth) return headers;
  // A whole account signs in with its bearer token; { cookie } alone uses the browser session.
  if ("user" in auth || auth.bearer) {
    headers.set("Authorization", `Bearer ${auth.bearer}`);
  } else if (auth.cookie) {
    headers.set("Cookie", auth.cookie);
    headers.set("Origin", BASE);
  }
  return headers;
}

type Handler = (args: LoaderFunctionArgs & ActionFunctionArgs) => Promise<unknown> | unknown;

/** Calls a loader or action with a real Request; a thrown Response is returned like a returned one. */
export async function call(
  handler: Handler,
  path: string,
  {
    auth = null,
    method = "GET",
    body,
    params = {},
    headers = {},
  }: { auth?: Auth; method?: string; body?: BodyInit; params?: Record<string, string>; headers?: Record<string, string> } = {},
): Promise<Response> {
  const request = new Request(BASE + path, { method, body, headers: headersFor(auth, headers), duplex: "half" } as RequestInit);
  try {
    const result = await handler({ request, params, context } as LoaderFunctionArgs & ActionFunctionArgs);
    if (result instanceof Response) return result;
    // Remix's data(value, init): the value as JSON with its status and headers.
    if (result && typeof result === "object" && (result as { type?: string }).type === "DataWithResponseInit") {
      const { data, init } = result as { data: unknown; init: ResponseInit | null };
      return Response.json(data, init ?? undefined);
    }
    return Response.json(result);
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

export async function readJson<T = Record<string, unknown>>(response: Response): Promise<T> {
  return (await response.json()) as T;
}
