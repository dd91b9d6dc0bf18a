import crypto from "node:crypto";
import { and, desc, eq, inArray, ne, or, sql } from "drizzle-orm";

import type { Receipt, ReceiptJson } from "~/domain/billing";
import { centsToDollars } from "~/domain/format";
import { isUuid } from "~/domain/ids";
import { planChargeOf, planLineName } from "~/domain/order";
import { can, type Actor } from "~/domain/permissions";
import { db, schema } from "~/utils/db.server";
import { env, sessionSecrets } from "~/utils/env.server";
import { notFound } from "~/utils/http.server";
import { readTogether } from "~/utils/read-together.server";

import { findPlan, selectPlans, type PlanRecord } from "./catalogue.server";

/*
 * Receipts: every paid order and every renewal invoice of a customer, the printable receipt page
 * and its signed link (e-mails open it without a sign-in).
 */

const PAID_ORDER_STATUSES: schema.OrderStatus[] = ["paid", "refunded", "partially_refunded"];

/** Our printable receipt page for a paid order or a renewal invoice. */
export const receiptPageUrl = (kind: "order" | "invoice", id: string) => `${env.appUrl}/receipts/${kind}/${id}`;

/** The customer's paid orders and renewal invoices, newest first, each with a receipt URL. */
/** The API's edge: a receipt with its money in dollars. */
export function toReceiptJson({ amountCents, refundedCents, ...receipt }: Receipt): ReceiptJson {
  return { _id: receipt.id, ...receipt, amount: centsToDollars(amountCents), refunded: centsToDollars(refundedCents) };
}

/** A customer's paid orders and renewal invoices, newest first, money in cents. */
export async function listReceiptsForUser(userId: string): Promise<Receipt[]> {
  if (!isUuid(userId)) return [];
  return toReceipts(await readTogether({ ...receiptReads(userId), plans: selectPlans() }));
}

/** A customer's orders that were paid, without renewals (a renewal's order is listed as its invoice: its own receipt and period). */
const paidOrdersOf = (userId: string) =>
  and(eq(schema.orders.userId, userId), inArray(schema.orders.status, PAID_ORDER_STATUSES), ne(schema.orders.kind, "renewal"));

/** What a customer's receipts are made of, as selects not yet run (read together with the catalogue's plans); the caller checks the id. */
export function receiptReads(userId: string) {
  return {
    orders: db.select().from(schema.orders).where(paidOrdersOf(userId)).orderBy(desc(schema.orders.paidAt)),
    orderInvoices: db
      .select({ orderId: schema.invoices.orderId, url: schema.invoices.hostedInvoiceUrl })
      .from(schema.invoices)
      .where(inArray(schema.invoices.orderId, db.select({ id: schema.orders.id }).from(schema.orders).where(paidOrdersOf(userId)))),
    renewals: selectRenewals().where(and(eq(schema.invoices.renewal, true), ownedBy(userId))),
  };
}

type ReceiptParts = { [K in keyof ReturnType<typeof receiptReads>]: Awaited<ReturnType<typeof receiptReads>[K]> } & { plans: PlanRecord[] };

/** The receipts of what receiptReads and the plans read, newest first. */
export function toReceipts({ orders, orderInvoices, renewals, plans }: ReceiptParts): Receipt[] {
  const hosted = new Map(orderInvoices.filter((i) => i.url).map((i) => [i.orderId, i.url!]));
  const planNames = new Map(plans.map((plan) => [plan.key, plan.name]));
  const planName = (key: string | null) => (key ? (planNames.get(key) ?? key) : "Monthly plan");
  const receipts: Receipt[] = [
    ...orders.map((order) => ({
      id: order.id,
      kind: "order" as const,
      amountCents: order.totalCents,
      refundedCents: refundedOf(order),
      currency: order.currency,
      paidAt: (order.paidAt ?? order.createdAt).toISOString(),
      url: hosted.get(order.id) ?? receiptPageUrl("order", order.id),
      description: order.kind === "subscription" ? planLineName(planName(order.planId), "sign-up") : "Services order",
    })),
    ...renewals.map(({ invoice, refunded, planId, paidPlanId }) => ({
      id: invoice.id,
      kind: "invoice" as const,
      amountCents: invoice.amountCents,
      refundedCents: refunded ?? invoice.refundedCents,
      currency: invoice.currency,
      paidAt: invoice.paidAt.toISOString(),
      url: invoice.hostedInvoiceUrl ?? receiptPageUrl("invoice", invoice.id),
      description: planLineName(planName(paidPlanId ?? planId), planChargeOf("renewal", invoice.billingReason)),
    })),
  ];
  return receipts.sort((a, b) => b.paidAt.localeCompare(a.paidAt));
}

/** Ops' refunds may add `refundedCents` to orders; until then a refunded order shows its whole total. */
function refundedOf(order: typeof schema.orders.$inferSelect): number {
  const refunded = (order as { refundedCents?: number | null }).refundedCents;
  if (typeof refunded === "number") return refunded;
  return order.status === "refunded" ? order.totalCents : 0;
}

/** Renewal invoices with their subscription and what their order (a renewal is an order, decision 175) has refunded. */
function selectRenewals() {
  return db
    .select({
      invoice: schema.invoices,
      subscriptionUserId: schema.subscriptions.userId,
      planId: schema.subscriptions.planId,
      // The plan the money was for (a switch's new plan), kept on its order.
      paidPlanId: schema.orders.planId,
      refunded: schema.orders.refundedCents,
    })
    .from(schema.invoices)
    .leftJoin(schema.subscriptions, eq(schema.subscriptions.id, schema.invoices.subscriptionId))
    .leftJoin(schema.orders, eq(schema.orders.id, schema.invoices.orderId));
}

/** An invoice recorded before its checkout completed has no user yet: its subscription has. */
const ownedBy = (userId: string) =>
  or(eq(schema.invoices.userId, userId), and(sql`${schema.invoices.userId} is null`, eq(schema.subscriptions.userId, userId)));

export interface ReceiptDetail {
  kind: "order" | "invoice";
  id: string;
  number: string;
  paidAt: Date;
  customer: { name: string; email: string };
  lines: { description: string; amountCents: number; quantity: number }[];
  totalCents: number;
  refundedCents: number;
  currency: string;
  hostedUrl: string | null;
  periodStart: Date | null;
  periodEnd: Date | null;
}

const receiptKey = (kind: string, id: string, secret: string) => crypto.createHmac("sha256", secret).update(`receipt:${kind}:${id}`).digest("base64url");

/**
 * The receipt link of an e-mail: our receipt page with a key signed by the session secret, so the
 * buyer opens it before they have a password (docs/decisions/145). The key shows this one receipt only.
 */
export const signedReceiptUrl = (kind: "order" | "invoice", id: string) =>
  `${receiptPageUrl(kind, id)}?${new URLSearchParams({ key: receiptKey(kind, id, sessionSecrets(env)[0]) })}`;

/** A receipt through its signed e-mail link; a wrong or missing key is the same 404 as no receipt. */
export async function getReceiptByKey(kind: string, id: string, key: string): Promise<ReceiptDetail> {
  const given = Buffer.from(key);
  const valid = sessionSecrets(env).some((secret) => {
    const expected = Buffer.from(receiptKey(kind, id, secret));
    return expected.length === given.length && crypto.timingSafeEqual(expected, given);
  });
  const detail = valid && isUuid(id) ? (kind === "order" ? await orderReceipt(id) : kind === "invoice" ? await invoiceReceipt(id) : null) : null;
  if (!detail) throw notFound("Receipt not found.");
  return detail.receipt;
}

/** One receipt for its customer or staff; anything else (not paid, someone else's) is a 404. */
export async function getReceiptFor(actor: Actor, kind: string, id: string): Promise<ReceiptDetail> {
  if (!isUuid(id) || (kind !== "order" && kind !== "invoice")) throw notFound("Receipt not found.");
  const detail = kind === "order" ? await orderReceipt(id) : await invoiceReceipt(id);
  if (!detail || !can(actor, "receipt:read", { ownerId: detail.ownerId })) throw notFound("Receipt not found.");
  return detail.receipt;
}

async function orderReceipt(id: string) {
  const [order] = await db.select().from(schema.orders).where(eq(schema.orders.id, id)).limit(1);
  if (!order || !PAID_ORDER_STATUSES.includes(order.status) || !order.userId) return null;
  const lines = await receiptLines(order);
  const [hosted] = await db.select({ url: schema.invoices.hostedInvoiceUrl }).from(schema.invoices).where(eq(schema.invoices.orderId, order.id)).limit(1);
  return {
    ownerId: order.userId,
    receipt: {
      kind: "order" as const,
      id: order.id,
      number: `BL-${order.id.slice(0, 8).toUpperCase()}`,
      paidAt: order.paidAt ?? order.createdAt,
      customer: { name: order.name, email: order.email },
      lines,
      totalCents: order.totalCents,
      refundedCents: refundedOf(order),
      currency: order.currency,
      hostedUrl: hosted?.url ?? null,
      periodStart: null,
      periodEnd: null,
    },
  };
}

async function invoiceReceipt(id: string) {
  const [row] = await selectRenewals().where(eq(schema.invoices.id, id)).limit(1);
  const ownerId = row?.invoice.userId ?? row?.subscriptionUserId ?? null;
  if (!row || !row.invoice.renewal || !ownerId) return null;
  const [owner] = await db.select({ name: schema.users.name, email: schema.users.email }).from(schema.users).where(eq(schema.users.id, ownerId));
  const planName = (await findPlan(row.paidPlanId ?? row.planId ?? ""))?.name ?? "Monthly plan";
  const invoice = row.invoice;
  return {
    ownerId,
    receipt: {
      kind: "invoice" as const,
      id: invoice.id,
      number: `BL-${invoice.id.slice(0, 8).toUpperCase()}`,
      paidAt: invoice.paidAt,
      customer: owner ?? { name: "", email: "" },
      lines: [{ description: planLineName(planName, planChargeOf("renewal", invoice.billingReason)), amountCents: invoice.amountCents, quantity: 1 }],
      totalCents: invoice.amountCents,
      refundedCents: row.refunded ?? invoice.refundedCents,
      currency: invoice.currency,
      hostedUrl: invoice.hostedInvoiceUrl,
      periodStart: invoice.periodStart,
      periodEnd: invoice.periodEnd,
    },
  };
}

/** What an order paid for: its plan, or its services (the order's own prices). */
async function receiptLines(order: typeof schema.orders.$inferSelect) {
  if (order.kind !== "services") {
    // A later payment's order has its invoice's id (decision 175): the invoice says whether it was a switch.
    const [invoice] =
      order.kind === "renewal"
        ? await db.select({ billingReason: schema.invoices.billingReason }).from(schema.invoices).where(eq(schema.invoices.id, order.id)).limit(1)
        : [];
    const planName = (await findPlan(order.planId ?? ""))?.name ?? "Monthly plan";
    return [{ description: planLineName(planName, planChargeOf(order.kind, invoice?.billingReason)), amountCents: order.totalCents, quantity: 1 }];
  }
  const rows = await db
    .select({ description: schema.services.name, amountCents: schema.purchases.amountCents, quantity: schema.purchases.quantity })
    .from(schema.purchases)
    .innerJoin(schema.services, eq(schema.services.id, schema.purchases.serviceId))
    .where(eq(schema.purchases.orderId, order.id))
    .orderBy(schema.purchases.createdAt);
  return rows;
}
