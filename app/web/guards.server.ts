import { ROLE_REFUSED } from "~/domain/clients";
import { can, type Action, type Actor } from "~/domain/permissions";
import { findCustomer } from "~/models/customers.server";
import { getPurchaseFor, toPurchase } from "~/models/purchases.server";
import { getSubscriptionFor, toSubscription } from "~/models/subscriptions.server";
import { HttpError } from "~/utils/http.server";
import { oncePerRequest } from "~/utils/request-context.server";
import { getIdentity, requireTeam, requireUser } from "~/web/auth.server";

/*
 * Guards shared by the dashboard's browser loaders and actions. Each loader calls one of these
 * itself; the API's 404 becomes the page's 404 (the root boundary's "Page not found").
 */

/** The one way a page or file route answers 404 (the route's error boundary shows its "not found" view). */
export const pageNotFound = () =>
  new Response("Not found", {
    status: 404,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });

/**
 * File routes (/files/…) read with the session: the signed-in user; signed out, the sign-in page; an
 * account held to its second-factor set-up is a stranger there (404), as on every other file route.
 */
export async function requireFileReader(request: Request) {
  if ((await getIdentity(request))?.setupOnly) throw pageNotFound();
  return requireUser(request);
}

/** A page-level 404 for a model's "not found or not yours" HttpError; other errors go on. */
export function asPageError(error: unknown): never {
  if (error instanceof HttpError && error.status === 404) throw pageNotFound();
  throw error;
}

/** The signed-in user and one purchase they may see (their own; staff: any). */
export async function loadOwnPurchase(request: Request, purchaseId: string | undefined) {
  const user = await requireUser(request);
  const row = await getPurchaseFor(user, purchaseId ?? "").catch(asPageError);
  return { user, purchase: { ...row, view: toPurchase(row) } };
}

/** The signed-in user and one plan they may see (their own; staff: any); otherwise the page's 404. */
export async function loadOwnSubscription(request: Request, subscriptionId: string | undefined) {
  const user = await requireUser(request);
  const row = await getSubscriptionFor(user, subscriptionId ?? "").catch(asPageError);
  return { user, row, subscription: await toSubscription(row) };
}

/** Staff and the customer account they opened, read once per request (the page and its tab both ask). */
export async function loadCustomer(request: Request, userId: string | undefined) {
  const staff = await requireTeam(request);
  const customer = await oncePerRequest(request, `customer:${userId ?? ""}`, () => findCustomer(userId ?? ""));
  if (!customer) throw pageNotFound();
  return { staff, customer };
}

/**
 * A customer page a client's member opens only when their role covers it (decision 283): others get
 * the page's 403 with the reason. Staff pass (the route decides what staff see).
 */
export async function requireMemberPage(request: Request, action: Action) {
  const user = await requireUser(request);
  if (user.role === "user" && !can(user, action)) throw new Response(ROLE_REFUSED, { status: 403, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  return user;
}

/** Where a customer's dashboard starts: the first page their role covers. */
export function customerHome(user: Actor): string {
  return can(user, "purchases:list-own") ? "/dashboard/services" : can(user, "billing:manage") ? "/dashboard/receipts" : "/dashboard/account";
}

/** Staff who may change the catalogue (the editor's pages and forms). */
export async function requireCatalogueEditor(request: Request) {
  const user = await requireUser(request);
  if (!can(user, "catalogue:manage")) throw new Response("Not allowed", { status: 403 });
  return user;
}
