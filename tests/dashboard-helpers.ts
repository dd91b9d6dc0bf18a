import crypto from "node:crypto";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { seedCatalogue } from "#db/seed";
import { createSession } from "~/models/sessions.server";
import { sessionCookieHeader } from "~/utils/auth.server";
import { db, schema } from "~/utils/db.server";
import type { PurchaseStatus } from "#db/schema";

/** Rows and callers for the dashboard's tests: customers, staff, orders and purchases, real Requests. */

export const BASE = "http://localhost";
export const context = { requestId: "test", cspNonce: "", clientIp: "127.0.0.1" };

const unique = () => crypto.randomBytes(4).toString("hex");

export async function createAccount(role: "user" | "team" = "user", overrides: { name?: string; email?: string; disabledAt?: Date } = {}) {
  const [user] = await db
    .insert(schema.users)
    .values({
      email: overrides.email ?? `${role}-${unique()}@dash.test`,
      name: overrides.name ?? (role === "team" ? "Staff Member" : "Customer Person"),
      role,
      disabledAt: overrides.disabledAt,
    })
    .returning();
  const bearer = (await createSession(user.id, "bearer")).token;
  const cookieSession = await createSession(user.id, "cookie");
  const cookie = (await sessionCookieHeader(cookieSession.token, cookieSession.expiresAt)).split(";")[0];
  return { user, bearer, cookie };
}
export type Account = Awaited<ReturnType<typeof createAccount>>;

export async function catalogue() {
  await seedCatalogue(db);
  return db.select().from(schema.services).orderBy(schema.services.sortOrder);
}

/** A paid order of one service for a customer, its purchase in the given status. */
export async function createPurchase(
  userId: string | null,
  service: { id: string; priceCents: number },
  options: { status?: PurchaseStatus; quantity?: number; createdAt?: Date; orderStatus?: schema.OrderStatus } = {},
) {
  const status = options.status ?? "in_progress";
  const quantity = options.quantity ?? 1;
  const [order] = await db
    .insert(schema.orders)
    .values({
      email: `buyer-${unique()}@dash.test`,
      name: "Buyer",
      userId,
      status: options.orderStatus ?? (status === "pending" ? "pending" : status === "cancelled" ? "cancelled" : status === "refunded" ? "refunded" : "paid"),
      totalCents: service.priceCents * quantity,
      stripeSessionId: `cs_test_${unique()}`,
      createdAt: options.createdAt,
    })
    .returning();
  const [purchase] = await db
    .insert(schema.purchases)
    .values({
      orderId: order.id,
      serviceId: service.id,
      userId,
      amountCents: service.priceCents * quantity,
      quantity,
      status,
      createdAt: options.createdAt,
    })
    .returning();
  return { order, purchase };
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

export function bearer(account: Account) {
  return { bearer: account.bearer };
}
export function cookie(account: Account) {
  return { cookie: account.cookie };
}

type Handler = (args: LoaderFunctionArgs & ActionFunctionArgs) => Promise<unknown> | unknown;

/** Calls a loader or action with a real Request; a thrown Response is returned like a returned one. */
export async function call(
  handler: Handler,
  path: string,
  { auth = null, method = "GET", body, params = {}, headers = {} }: { auth?: Auth; method?: string; body?: BodyInit; params?: Record<string, string>; headers?: Record<string, string> } = {},
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
