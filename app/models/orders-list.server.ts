import { and, asc, desc, eq, gte, ilike, inArray, lt, or, sql, type SQL } from "drizzle-orm";

import { PURCHASE_COMPLETED_DETAIL } from "~/domain/audit";
import { centsToDollars } from "~/domain/format";
import { isUuid, withWireId } from "~/domain/ids";
import { planChargeOf, planLineName, type PlanCharge } from "~/domain/order";
import { storedStatusesFor, toApiOrderStatus, type ApiOrderStatus } from "~/domain/order-status";
import { orderTimeline, type TimelineEntry } from "~/domain/order-timeline";
import type { orderJson } from "~/domain/schemas/ops";
import type { z } from "~/domain/zod";
import { queryRows } from "~/utils/db-cursor.server";
import { db, schema } from "~/utils/db.server";
import { likePattern } from "~/utils/sql.server";

import { clientRefs } from "./clients.server";

/*
 * Every order for the staff (decision 092): pending, paid, expired, refunded and plan sign-ups, newest
 * first, filtered by status and date, searched by e-mail or name, a page at a time. The page is an
 * indexed offset on (created_at, id) (docs/decisions/092 has the figures at 100,000 orders).
 */

export const ORDERS_PAGE_SIZE = 25;
export const ORDERS_MAX_PAGE_SIZE = 100;

export interface OrderFilter {
  status?: ApiOrderStatus;
  search?: string;
  /** Inclusive first day and exclusive end, UTC. */
  from?: Date;
  to?: Date;
}

export interface OrderListQuery extends OrderFilter {
  page?: number;
  limit?: number;
}

type OrderRow = typeof schema.orders.$inferSelect;

/** An order as the API shapes it (docs/api.md), derived from its schema in app/domain/schemas/ops.ts. */
export type OrderJson = z.infer<typeof orderJson>;
/**
 * A line of the orders list's `Order`: a service (or a plan, by its key) with its price in cents;
 * app/domain/order.ts's `OrderLine` is an order's line as the checkout page, the success page and
 * the e-mails show it.
 */
export interface ListedOrderLine {
  service: { id: string; name: string };
  priceCents: number;
  quantity: number;
}

/**
 * An order as the loaders hand it to screens (decision 309): ids as `id`, money in integer cents.
 * The API's edge writes it as OrderJson (`_id` beside `id`, dollars).
 */
export interface Order {
  id: string;
  status: OrderJson["status"];
  email: string;
  name: string;
  customer: { id: string; name: string; email: string } | null;
  /** The buyer's client (company). */
  client: { id: string; name: string } | null;
  amountCents: number;
  /** Refunded so far. */
  refundedCents: number;
  currency: string;
  createdAt: string;
  paidAt: string | null;
  lines: ListedOrderLine[];
  kind: OrderJson["kind"];
  /** A plan's later month (or a plan switch's proration), not its sign-up. */
  renewal: boolean;
  /** The plan this payment belongs to; null for services. */
  subscriptionId: string | null;
  /** A plan's payment: its sign-up, a renewal or a switch (the screens' label); null for services. */
  charge: PlanCharge | null;
}

/**
 * An e-mail address (anything with "@") matches the addresses it starts, through an index on
 * lower(email); other text matches inside the name or the e-mail (a scan; see docs/decisions/092).
 */
function searchCondition(term: string): SQL {
  if (term.includes("@")) return sql`lower(${schema.orders.email}) like ${`${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`;
  return or(ilike(schema.orders.email, likePattern(term)), ilike(schema.orders.name, likePattern(term)))!;
}

export function orderConditions({ status, search, from, to }: OrderFilter): SQL | undefined {
  const term = search?.trim();
  return and(
    status ? inArray(schema.orders.status, storedStatusesFor(status)) : undefined,
    term ? searchCondition(term) : undefined,
    from ? gte(schema.orders.createdAt, from) : undefined,
    to ? lt(schema.orders.createdAt, to) : undefined,
  );
}

const customerColumns = { customerId: schema.users.id, customerName: schema.users.name, customerEmail: schema.users.email };
type ListedOrderRow = OrderRow & { customerId: string | null; customerName: string | null; customerEmail: string | null; billingReason: string | null };

/** What a plan's payment paid for; null for services. */
const chargeOf = (order: ListedOrderRow): PlanCharge | null => (order.kind === "services" ? null : planChargeOf(order.kind, order.billingReason));

export async function listOrders({ page = 1, limit = ORDERS_PAGE_SIZE, ...filter }: OrderListQuery = {}) {
  const where = orderConditions(filter);
  const size = Math.min(Math.max(1, Math.floor(limit)), ORDERS_MAX_PAGE_SIZE);
  const current = Math.max(1, Math.floor(page));
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({ ...ordersColumns(), ...customerColumns })
      .from(schema.orders)
      .leftJoin(schema.users, eq(schema.users.id, schema.orders.userId))
      .where(where)
      .orderBy(desc(schema.orders.createdAt), desc(schema.orders.id))
      .limit(size)
      .offset((current - 1) * size),
    countOrders(filter, where),
  ]);
  const [lines, clients] = await Promise.all([linesOf(rows as ListedOrderRow[]), clientsOf(rows as ListedOrderRow[])]);
  return { orders: (rows as ListedOrderRow[]).map((row) => toOrder(row, lines.get(row.id) ?? [], clients)), total, page: current, limit: size };
}

/** Every order linked to one account, newest first (the account's own data export). */
export async function listOrdersOfUser(userId: string): Promise<OrderJson[]> {
  const rows = (await db
    .select({ ...ordersColumns(), ...customerColumns })
    .from(schema.orders)
    .leftJoin(schema.users, eq(schema.users.id, schema.orders.userId))
    .where(eq(schema.orders.userId, userId))
    .orderBy(desc(schema.orders.createdAt), desc(schema.orders.id))) as ListedOrderRow[];
  const lines = await linesOf(rows);
  const clients = await clientsOf(rows);
  return rows.map((row) => toOrderJson(toOrder(row, lines.get(row.id) ?? [], clients)));
}

/**
 * The list's total: without search or dates it is read from the per-status counts a trigger keeps
 * (db/migrations/0009_ops_revenue.sql), else counted through the indexes.
 */
async function countOrders(filter: OrderFilter, where: SQL | undefined): Promise<{ total: number }[]> {
  if (!filter.search?.trim() && !filter.from && !filter.to) {
    const statuses = filter.status ? storedStatusesFor(filter.status) : null;
    const [row] = await queryRows<{ total: number }>(
      sql`select coalesce(sum(orders), 0)::int as total from order_status_counts ${
        statuses
          ? sql`where status in (${sql.join(
              statuses.map((s) => sql`${s}`),
              sql`, `,
            )})`
          : sql``
      }`,
    );
    return [row];
  }
  return db
    .select({ total: sql<number>`count(*)::int` })
    .from(schema.orders)
    .where(where);
}

function ordersColumns() {
  const { orders } = schema;
  return {
    id: orders.id,
    kind: orders.kind,
    email: orders.email,
    name: orders.name,
    userId: orders.userId,
    status: orders.status,
    totalCents: orders.totalCents,
    refundedCents: orders.refundedCents,
    currency: orders.currency,
    planId: orders.planId,
    subscriptionId: sql<
      string | null
    >`coalesce(${orders.subscriptionId}, (select ${schema.subscriptions.id} from ${schema.subscriptions} where ${schema.subscriptions.orderId} = ${orders.id} limit 1))`.as(
      "subscription_id",
    ),
    // A later payment's order has its invoice's id (decision 175): its billing reason tells a switch from a renewal.
    billingReason: sql<string | null>`(select ${schema.invoices.billingReason} from ${schema.invoices} where ${schema.invoices.id} = ${orders.id})`.as(
      "billing_reason",
    ),
    stripeSessionId: orders.stripeSessionId,
    stripePaymentIntentId: orders.stripePaymentIntentId,
    stripeCustomerId: orders.stripeCustomerId,
    paidAt: orders.paidAt,
    createdAt: orders.createdAt,
    updatedAt: orders.updatedAt,
  };
}

/** The lines of these orders in two indexed queries: services' purchases, and plans by key. */
async function linesOf(orders: ListedOrderRow[]): Promise<Map<string, ListedOrderLine[]>> {
  const byOrder = new Map<string, ListedOrderLine[]>();
  const serviceOrders = orders.filter((o) => o.kind === "services").map((o) => o.id);
  if (serviceOrders.length > 0) {
    const rows = await db
      .select({
        orderId: schema.purchases.orderId,
        serviceId: schema.services.id,
        name: schema.services.name,
        amountCents: schema.purchases.amountCents,
        quantity: schema.purchases.quantity,
      })
      .from(schema.purchases)
      .innerJoin(schema.services, eq(schema.services.id, schema.purchases.serviceId))
      .where(inArray(schema.purchases.orderId, serviceOrders))
      .orderBy(asc(schema.purchases.createdAt), asc(schema.services.name));
    for (const row of rows) {
      const list = byOrder.get(row.orderId) ?? [];
      list.push({ service: { id: row.serviceId, name: row.name }, priceCents: Math.round(row.amountCents / row.quantity), quantity: row.quantity });
      byOrder.set(row.orderId, list);
    }
  }
  const planOrders = orders.filter((o) => o.kind !== "services");
  const planKeys = [...new Set(planOrders.filter((o) => o.planId).map((o) => o.planId!))];
  const planNames = await namesOfPlans(planKeys);
  for (const order of planOrders) {
    const key = order.planId ?? "plan";
    const name = planNames.get(key) ?? `${key.toUpperCase()} plan`;
    byOrder.set(order.id, [{ service: { id: key, name: planLineName(name, chargeOf(order)!) }, priceCents: order.totalCents, quantity: 1 }]);
  }
  return byOrder;
}

async function namesOfPlans(keys: string[]): Promise<Map<string, string>> {
  if (keys.length === 0) return new Map();
  const result = await db.execute<{ key: string; name: string }>(
    sql`select key, name from plans where key in (${sql.join(
      keys.map((k) => sql`${k}`),
      sql`, `,
    )})`,
  );
  const rows = Array.isArray(result) ? result : ((result as { rows?: { key: string; name: string }[] }).rows ?? []);
  return new Map(rows.map((row) => [row.key, row.name]));
}

/** The buyers' clients (decision 295): an order's account is its client's id, named in one query per list. */
const clientsOf = (rows: ListedOrderRow[]) => clientRefs(rows.flatMap((row) => (row.customerId ? [row.customerId] : [])));

function toOrder(row: ListedOrderRow, lines: ListedOrderLine[], clients: Map<string, { id: string; name: string }>): Order {
  return {
    id: row.id,
    status: toApiOrderStatus(row.status),
    email: row.email,
    name: row.name,
    customer: row.customerId ? { id: row.customerId, name: row.customerName ?? "", email: row.customerEmail ?? "" } : null,
    client: (row.customerId && clients.get(row.customerId)) || null,
    amountCents: row.totalCents,
    refundedCents: row.refundedCents,
    currency: row.currency,
    createdAt: row.createdAt.toISOString(),
    paidAt: row.paidAt?.toISOString() ?? null,
    lines,
    kind: row.kind === "services" ? "services" : "plan",
    renewal: row.kind === "renewal",
    subscriptionId: row.subscriptionId ?? null,
    charge: chargeOf(row),
  };
}

/** The API's edge: an order with `_id` beside `id` and its money in dollars. */
export function toOrderJson({ customer, client, amountCents, refundedCents, lines, charge, ...order }: Order): OrderJson {
  return {
    _id: order.id,
    ...order,
    customer: customer && withWireId(customer),
    client: client && withWireId(client),
    amount: centsToDollars(amountCents),
    refunded: centsToDollars(refundedCents),
    lines: lines.map(({ service, priceCents, ...line }) => ({ ...line, service: withWireId(service), price: centsToDollars(priceCents) })),
  };
}

/** A plan's payments, oldest first: its sign-up order and every renewal (decision 175). */
export async function listPaymentsOfSubscription(subscription: { id: string; orderId: string | null }): Promise<Order[]> {
  const rows = (await db
    .select({ ...ordersColumns(), ...customerColumns })
    .from(schema.orders)
    .leftJoin(schema.users, eq(schema.users.id, schema.orders.userId))
    .where(
      or(
        eq(schema.orders.subscriptionId, subscription.id),
        subscription.orderId && isUuid(subscription.orderId) ? eq(schema.orders.id, subscription.orderId) : undefined,
      ),
    )
    // The sign-up first (Stripe's paid_at has whole seconds only), then the renewals as paid.
    .orderBy(
      asc(sql`${schema.orders.kind} <> 'subscription'`),
      asc(sql`coalesce(${schema.orders.paidAt}, ${schema.orders.createdAt})`),
      asc(schema.orders.id),
    )) as ListedOrderRow[];
  const lines = await linesOf(rows);
  const clients = await clientsOf(rows);
  return rows.map((row) => toOrder(row, lines.get(row.id) ?? [], clients));
}

export interface RefundView {
  id: string;
  amountCents: number;
  currency: string;
  status: string;
  source: string;
  stripeRefundId: string | null;
  createdAt: string;
  createdBy: string | null;
  reason: string | null;
  failureMessage: string | null;
}

export interface OrderDetail {
  order: Order;
  stripeSessionId: string | null;
  stripePaymentIntentId: string | null;
  stripeCustomerId: string | null;
  refunds: RefundView[];
  emails: { kind: string; recipient: string; subject: string; sentAt: string }[];
  /** Its history, oldest first, with who did each thing. */
  timeline: TimelineEntry[];
}

/** One order with everything its page shows; null for an unknown or malformed id. */
export async function getOrderDetail(id: string): Promise<OrderDetail | null> {
  if (!isUuid(id)) return null;
  const [row] = await db
    .select({ ...ordersColumns(), ...customerColumns })
    .from(schema.orders)
    .leftJoin(schema.users, eq(schema.users.id, schema.orders.userId))
    .where(eq(schema.orders.id, id))
    .limit(1);
  if (!row) return null;
  const staff = schema.users;
  const [lines, refunds, emails, work] = await Promise.all([
    linesOf([row as ListedOrderRow]),
    db
      .select({ refund: schema.refunds, createdBy: staff.name })
      .from(schema.refunds)
      .leftJoin(staff, eq(staff.id, schema.refunds.createdById))
      .where(eq(schema.refunds.orderId, id))
      .orderBy(asc(schema.refunds.createdAt)),
    db.select().from(schema.orderEmails).where(eq(schema.orderEmails.orderId, id)).orderBy(asc(schema.orderEmails.sentAt)),
    db
      .select({
        service: schema.services.name,
        completedAt: schema.purchases.completedAt,
        // Who marked it completed, from the audit log (none for work completed before the log).
        completedBy: sql<string | null>`(select ${schema.auditEntries.actorName} from ${schema.auditEntries}
          where ${schema.auditEntries.targetKind} = 'purchase' and ${schema.auditEntries.targetId} = ${schema.purchases.id}::text
            and ${schema.auditEntries.action} = 'purchase.status' and ${schema.auditEntries.detail} = ${PURCHASE_COMPLETED_DETAIL}
          order by ${schema.auditEntries.createdAt} desc, ${schema.auditEntries.seq} desc limit 1)`,
      })
      .from(schema.purchases)
      .innerJoin(schema.services, eq(schema.services.id, schema.purchases.serviceId))
      .where(eq(schema.purchases.orderId, id)),
  ]);
  return {
    order: toOrder(row as ListedOrderRow, lines.get(row.id) ?? [], await clientsOf([row as ListedOrderRow])),
    stripeSessionId: row.stripeSessionId,
    stripePaymentIntentId: row.stripePaymentIntentId,
    stripeCustomerId: row.stripeCustomerId,
    refunds: refunds.map(({ refund, createdBy }) => ({
      id: refund.id,
      amountCents: refund.amountCents,
      currency: refund.currency,
      status: refund.status,
      source: refund.source,
      stripeRefundId: refund.stripeRefundId,
      createdAt: refund.createdAt.toISOString(),
      createdBy,
      reason: refund.reason,
      failureMessage: refund.failureMessage,
    })),
    emails: emails.map((e) => ({ kind: e.kind, recipient: e.recipient, subject: e.subject, sentAt: e.sentAt.toISOString() })),
    timeline: orderTimeline({
      order: {
        name: row.name,
        email: row.email,
        status: row.status,
        totalCents: row.totalCents,
        currency: row.currency,
        createdAt: row.createdAt.toISOString(),
        paidAt: row.paidAt?.toISOString() ?? null,
        updatedAt: row.updatedAt.toISOString(),
      },
      refunds: refunds.map(({ refund, createdBy }) => ({
        amountCents: refund.amountCents,
        status: refund.status,
        source: refund.source,
        createdBy,
        reason: refund.reason,
        createdAt: refund.createdAt.toISOString(),
        failureMessage: refund.failureMessage,
      })),
      emails: emails.map((e) => ({ recipient: e.recipient, subject: e.subject, sentAt: e.sentAt.toISOString() })),
      work: work.map((w) => ({ service: w.service, completedAt: w.completedAt?.toISOString() ?? null, completedBy: w.completedBy })),
    }),
  };
}
