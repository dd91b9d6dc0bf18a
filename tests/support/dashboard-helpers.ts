import { callRoute } from "./call-route";
import { createAccount as makeAccount, type Account } from "./factories";
import { BASE_URL as BASE, CONTEXT as context } from "./requests";

/** Rows and callers for the dashboard's tests: customers, staff, orders and purchases, real Requests. */

/** Accounts, the catalogue and purchases come from tests/support/factories.ts. */
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

type Handler = Parameters<typeof callRoute>[0];

/** Calls a loader or action with a real Request (tests/support/call-route.ts); a thrown Response is returned like a returned one. */
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
  return (await callRoute(handler, request, { params, context })).response;
}

export async function readJson<T = Record<string, unknown>>(response: Response): Promise<T> {
  return (await response.json()) as T;
}
