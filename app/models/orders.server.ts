import { and, asc, eq, inArray, sql } from "drizzle-orm";

import { isUuid } from "~/domain/ids";
import { planLineName, type OrderLine } from "~/domain/order";
import { db, schema, type Tx } from "~/utils/db.server";
import { sendStoredEmails } from "~/utils/email.server";
import { HttpError } from "~/utils/http.server";
import { logger } from "~/utils/logger.server";
import { idOf, paymentGateway, stripe, type CheckoutLine, type CheckoutSession } from "~/utils/stripe.server";

import { openBriefs } from "./briefs.server";
import { ensurePackageService, findPlan } from "./catalogue.server";
import { clientOfAccount } from "./clients.server";
import { notifyOfPaidOrder } from "./notifications.server";
import { storeOrderEmails, teamRecipients } from "./order-emails.server";
import { findActiveServices, type Service } from "./services.server";
import { findOrCreateCustomer, type User } from "./users.server";
import { emitEvent, orderEventData } from "./webhooks.server";

/** An order as its row is stored (money in cents); the screens' shape is `Order` of orders-list.server.ts. */
export type OrderRow = typeof schema.orders.$inferSelect;

export const NETWORK_ERROR_MESSAGE = "Network error. Please try again.";
export const NO_CHECKOUT_URL_MESSAGE = "Checkout URL not found. Please try again.";

export interface Buyer {
  name: string;
  email: string;
}

export interface CheckoutStart {
  orderId: string;
  sessionId: string;
  checkoutUrl: string;
}

export type { OrderLine };

/**
 * An a-la-carte order: every price comes from the catalogue as it is now (services by id, "Our
 * Services" packages by key), never from the client; the order keeps those prices.
 */
export async function createServicesOrder(buyer: Buyer, serviceIds: string[], packageKeys: string[] = []): Promise<CheckoutStart> {
  if (serviceIds.length + packageKeys.length === 0) throw new HttpError(400, "Please select at least one service.", "INVALID_INPUT");
  if (new Set(serviceIds).size !== serviceIds.length || new Set(packageKeys).size !== packageKeys.length) {
    throw new HttpError(400, "Each service can be ordered once per order.", "INVALID_INPUT");
  }
  const found = await findActiveServices(serviceIds);
  const byId = new Map(found.map((s) => [s.id, s]));
  const services: Service[] = [];
  for (const id of serviceIds) {
    const service = byId.get(id);
    if (!service) throw new HttpError(400, "One of the selected services is not available. Please refresh and try again.", "UNKNOWN_SERVICE");
    services.push(service);
  }
  for (const key of packageKeys) {
    const service = await ensurePackageService(key);
    if (!service) throw new HttpError(400, "One of the selected services is not available. Please refresh and try again.", "UNKNOWN_SERVICE");
    services.push(service);
  }
  const order = await db.transaction(async (tx) => {
    const [created] = await tx
      .insert(schema.orders)
      .values({ kind: "services", ...buyer, totalCents: services.reduce((sum, s) => sum + s.priceCents, 0) })
      .returning();
    await tx
      .insert(schema.purchases)
      .values(services.map((service) => ({ orderId: created.id, serviceId: service.id, amountCents: service.priceCents, currency: service.currency })));
    return created;
  });
  const lines = services.map((s) => ({ name: s.name, description: s.description, amountCents: s.priceCents, currency: s.currency, quantity: 1 }));
  return startCheckout(order, "payment", lines);
}

/** A monthly plan: the same flow in subscription mode, with a subscription row kept current by webhooks. */
export async function createPlanOrder(buyer: Buyer, planId: string): Promise<CheckoutStart> {
  const plan = await findPlan(planId);
  if (!plan) throw new HttpError(400, "Please choose one of our plans.", "UNKNOWN_PLAN");
  const order = await db.transaction(async (tx) => {
    const [created] = await tx
      .insert(schema.orders)
      .values({ kind: "subscription", ...buyer, planId: plan.key, totalCents: plan.priceCents, currency: plan.currency })
      .returning();
    await tx
      .insert(schema.subscriptions)
      .values({ orderId: created.id, planId: plan.key, priceCents: plan.priceCents, currency: plan.currency, status: "incomplete" });
    return created;
  });
  const line = { name: planLineName(plan.name, "sign-up"), description: plan.tagline, amountCents: plan.priceCents, currency: plan.currency, quantity: 1 };
  return startCheckout(order, "subscription", [line], plan.key);
}

/** The order is stored before Stripe is asked, so a Stripe failure leaves a pending order and nothing else. */
async function startCheckout(order: OrderRow, mode: "payment" | "subscription", lines: CheckoutLine[], planId?: string): Promise<CheckoutStart> {
  let session;
  try {
    session = await paymentGateway.createCheckoutSession({ orderId: order.id, mode, email: order.email, lines, planId });
  } catch (error) {
    logger.warn({ err: error, orderId: order.id }, "creating the checkout session failed");
    throw new HttpError(502, NETWORK_ERROR_MESSAGE, "UPSTREAM_ERROR");
  }
  await db.update(schema.orders).set({ stripeSessionId: session.id, updatedAt: new Date() }).where(eq(schema.orders.id, order.id));
  if (!session.url) throw new HttpError(502, NO_CHECKOUT_URL_MESSAGE, "UPSTREAM_ERROR");
  return { orderId: order.id, sessionId: session.id, checkoutUrl: session.url };
}

export async function findOrderBySession(sessionId: string): Promise<OrderRow | null> {
  const [order] = await db.select().from(schema.orders).where(eq(schema.orders.stripeSessionId, sessionId)).limit(1);
  return order ?? null;
}

export async function findOrder(id: string): Promise<OrderRow | null> {
  if (!isUuid(id)) return null;
  const [order] = await db.select().from(schema.orders).where(eq(schema.orders.id, id)).limit(1);
  return order ?? null;
}

export async function orderLines(order: OrderRow): Promise<OrderLine[]> {
  if (order.kind === "subscription") {
    const plan = order.planId ? await findPlan(order.planId) : null;
    return [{ name: plan ? planLineName(plan.name, "sign-up") : "Monthly plan", amountCents: order.totalCents, quantity: 1, recurring: true }];
  }
  const rows = await db
    .select({ name: schema.services.name, amountCents: schema.purchases.amountCents, quantity: schema.purchases.quantity })
    .from(schema.purchases)
    .innerJoin(schema.services, eq(schema.services.id, schema.purchases.serviceId))
    .where(eq(schema.purchases.orderId, order.id))
    // As the picker and the order modal list them: catalogue order (packages, sort order 1000, last).
    .orderBy(asc(schema.purchases.createdAt), asc(schema.services.sortOrder), asc(schema.services.name));
  return rows.map((row) => ({ ...row, recurring: false }));
}

/**
 * What a buyer who backed out of a checkout had chosen, and the landing page's address that ticks
 * it again (services, a package or a plan): the cancel page's "your selection is not lost"
 * (docs/decisions/172-a-cancelled-checkout-keeps-its-selection.md). Null for a paid or unknown order.
 */
export async function selectionOf(orderId: string): Promise<{ names: string[]; href: string } | null> {
  const order = await findOrder(orderId);
  if (!order || (order.status !== "pending" && order.status !== "cancelled")) return null;
  if (order.kind === "subscription") {
    const plan = order.planId ? await findPlan(order.planId) : null;
    return plan ? { names: [planLineName(plan.name, "sign-up")], href: `/?planId=${encodeURIComponent(plan.key)}` } : null;
  }
  const rows = await db
    .select({ id: schema.services.id, slug: schema.services.slug, name: schema.services.name, active: schema.services.active })
    .from(schema.purchases)
    .innerJoin(schema.services, eq(schema.services.id, schema.purchases.serviceId))
    .where(eq(schema.purchases.orderId, order.id))
    .orderBy(asc(schema.services.sortOrder), asc(schema.services.name));
  const query = new URLSearchParams();
  for (const row of rows) {
    const tier = /^package-(.+)-([1-3])$/.exec(row.slug);
    if (tier) query.set("package", `${tier[1]}:${tier[2]}`);
    else if (row.active) query.append("services", row.id);
  }
  if (query.size === 0) return null;
  const names = rows.map((row) => row.name);
  // A package reopens its order form; services come back ticked in the picker, in view.
  return { names, href: query.has("services") ? `/?${query}#a-la-carte` : `/?${query}` };
}

/** A Checkout Session by id: from Stripe, or built from our order in test-checkout mode. */
export async function retrieveCheckoutSession(sessionId: string): Promise<CheckoutSession | null> {
  if (stripe) {
    try {
      return await stripe.checkout.sessions.retrieve(sessionId);
    } catch (error) {
      logger.warn({ err: error, sessionId }, "retrieving the checkout session failed");
      return null;
    }
  }
  const order = await findOrderBySession(sessionId);
  return order ? testCheckoutSession(order) : null;
}

/** What Stripe would say about a session of the built-in test checkout. */
export function testCheckoutSession(order: OrderRow, paid = order.status === "paid" || order.status === "refunded"): CheckoutSession {
  return {
    id: order.stripeSessionId ?? "",
    client_reference_id: order.id,
    payment_status: paid ? "paid" : "unpaid",
    status: paid ? "complete" : order.status === "cancelled" ? "expired" : "open",
    mode: order.kind === "subscription" ? "subscription" : "payment",
    customer: null,
    payment_intent: null,
    // The test checkout's plan gets a subscription id of its own, like Stripe's, for the test billing page.
    subscription: order.kind === "subscription" ? `sub_test_${order.id}` : null,
    customer_details: { email: order.email, name: order.name },
  };
}

export interface StripeEventRef {
  id: string;
  type: string;
}

/** Records the event id in this transaction; false when it was already recorded (a redelivery). */
export async function recordStripeEvent(tx: Tx, event: StripeEventRef | undefined): Promise<boolean> {
  if (!event) return true;
  const inserted = await tx.insert(schema.stripeEvents).values({ id: event.id, type: event.type }).onConflictDoNothing().returning();
  return inserted.length > 0;
}

export type FulfilmentOutcome = "fulfilled" | "already-fulfilled" | "unpaid" | "unknown-order" | "duplicate-event";

/**
 * THE fulfilment, for the webhook, the success page and the test checkout. Idempotent and safe to
 * run twice at the same moment: the pending → paid update is conditional, so exactly one caller
 * wins; the winner alone sends the e-mails, after its transaction has committed.
 */
export async function fulfilCheckoutSession(session: CheckoutSession, event?: StripeEventRef): Promise<FulfilmentOutcome> {
  const order = session.client_reference_id ? await findOrder(session.client_reference_id) : null;
  const matches = !!order && (!order.stripeSessionId || order.stripeSessionId === session.id);
  const paid = session.payment_status === "paid" || session.payment_status === "no_payment_required";
  if (!order || !matches || !paid || order.status !== "pending") {
    const recorded = await db.transaction((tx) => recordStripeEvent(tx, event));
    if (!recorded) return "duplicate-event";
    return !order || !matches ? "unknown-order" : !paid ? "unpaid" : "already-fulfilled";
  }
  const now = new Date();
  // Read before the transaction (the embedded database has one connection: no read beside it).
  const [lines, team] = await Promise.all([orderLines(order), teamRecipients()]);
  const result = await db.transaction(
    async (tx): Promise<{ outcome: FulfilmentOutcome; customer?: User; emailJobs?: string[]; notified?: () => Promise<void> }> => {
      if (!(await recordStripeEvent(tx, event))) return { outcome: "duplicate-event" };
      // The conditional update is the lock: a concurrent second caller waits here, then matches nothing.
      const [won] = await tx
        .update(schema.orders)
        .set({
          status: "paid",
          paidAt: now,
          updatedAt: now,
          stripeSessionId: session.id,
          stripePaymentIntentId: idOf(session.payment_intent),
          stripeCustomerId: idOf(session.customer),
        })
        .where(and(eq(schema.orders.id, order.id), eq(schema.orders.status, "pending")))
        .returning({ id: schema.orders.id });
      if (!won) return { outcome: "already-fulfilled" };
      const { user: customer } = await findOrCreateCustomer(order.email, order.name, tx);
      // A member of a client buys for the client: the order, its purchases and plan are the client's.
      const ownerId = await buyersClient(tx, customer.id);
      await tx.update(schema.orders).set({ userId: ownerId }).where(eq(schema.orders.id, order.id));
      await tx
        .update(schema.purchases)
        .set({ status: "in_progress", userId: ownerId, updatedAt: now })
        .where(and(eq(schema.purchases.orderId, order.id), eq(schema.purchases.status, "pending")));
      if (order.kind === "subscription") {
        await tx
          .update(schema.subscriptions)
          .set({
            status: "active",
            userId: ownerId,
            updatedAt: now,
            // Until Stripe's subscription events say otherwise, the first period is a month from now.
            currentPeriodEnd: sql`coalesce(${schema.subscriptions.currentPeriodEnd}, now() + interval '1 month')`,
            // customer.subscription.created may have linked it already; never overwrite with null.
            ...(idOf(session.subscription) ? { stripeSubscriptionId: idOf(session.subscription), stripeCustomerId: idOf(session.customer) } : {}),
          })
          .where(eq(schema.subscriptions.orderId, order.id));
      }
      await openBriefs(tx, order.id, ownerId, now);
      await emitEvent(tx, "order.paid", orderEventData(order, ownerId, now));
      if (order.kind === "subscription") await emitEvent(tx, "subscription.created", orderEventData(order, ownerId, now));
      const emailJobs = await storeOrderEmails(tx, order, customer, lines, team);
      // The team's bell, and the client's when a brief is needed (docs/decisions/289).
      const notified = await notifyOfPaidOrder(tx, order, ownerId);
      return { outcome: "fulfilled", customer, emailJobs, notified };
    },
  );
  const { outcome, customer, emailJobs } = result;
  if (outcome === "fulfilled" && customer) {
    logger.info({ orderId: order.id, userId: customer.id }, "order fulfilled");
    // Stored with the order: sent now, or by their jobs later if this fails or the node stops.
    await sendStoredEmails(emailJobs ?? []);
    await result.notified?.().catch((error: unknown) => logger.warn({ err: error, orderId: order.id }, "order notifications wait for the job engine"));
  }
  return outcome;
}

/** Checkout expired or abandoned: a still-pending order and its purchases are cancelled. */
export async function cancelCheckoutSession(
  session: Pick<CheckoutSession, "id" | "client_reference_id">,
  event?: StripeEventRef,
  status: "cancelled" | "failed" = "cancelled",
) {
  return db.transaction(async (tx) => {
    if (!(await recordStripeEvent(tx, event))) return "duplicate-event" as const;
    const orderId = session.client_reference_id;
    if (!isUuid(orderId)) return "unknown-order" as const;
    const [order] = await tx
      .update(schema.orders)
      .set({ status, updatedAt: new Date() })
      .where(and(eq(schema.orders.id, orderId), eq(schema.orders.status, "pending")))
      .returning({ id: schema.orders.id });
    if (!order) return "not-pending" as const;
    await tx
      .update(schema.purchases)
      .set({ status: "cancelled", updatedAt: new Date() })
      .where(and(eq(schema.purchases.orderId, orderId), inArray(schema.purchases.status, ["pending"])));
    await tx
      .update(schema.subscriptions)
      .set({ status: "incomplete_expired", updatedAt: new Date() })
      .where(and(eq(schema.subscriptions.orderId, orderId), eq(schema.subscriptions.status, "incomplete")));
    return "cancelled" as const;
  });
}

/** For the dashboard: the customer's current monthly plan (see subscriptions.server.ts). */
export { getActiveSubscription } from "./subscriptions.server";

/** The client a buyer's account belongs to (its own id for a client of one). */
async function buyersClient(tx: Tx, userId: string): Promise<string> {
  const client = clientOfAccount(schema.users.id);
  const [row] = await tx
    .select({ clientId: client.id })
    .from(schema.users)
    .leftJoin(...client.membership)
    .where(eq(schema.users.id, userId))
    .limit(1);
  return row?.clientId ?? userId;
}
