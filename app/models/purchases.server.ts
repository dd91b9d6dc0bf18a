import { centsToDollars } from "~/domain/format";
import type { PurchaseJson } from "~/domain/purchase";
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { db, schema } from "~/utils/db.server";
import { HttpError, notFound } from "~/utils/http.server";
import { logger } from "~/utils/logger.server";
import { can, type Actor } from "~/domain/permissions";
import { WORK_STATUSES, type WorkStatus } from "~/domain/purchase";
import { isUuid } from "~/domain/ids";

/**
 * Purchases as the dashboard and the JSON API see them. A customer sees what they paid for
 * (in progress, completed, refunded); pending and cancelled checkouts were never theirs to work on.
 */
export const VISIBLE_STATUSES = ["in_progress", "completed", "refunded"] as const;
/** Paid purchases: the ones that count as "booked" and can receive reports. */
export const PAID_STATUSES = ["in_progress", "completed"] as const;
export { WORK_STATUSES, type WorkStatus };

const columns = {
  id: schema.purchases.id,
  userId: schema.purchases.userId,
  amountCents: schema.purchases.amountCents,
  currency: schema.purchases.currency,
  quantity: schema.purchases.quantity,
  status: schema.purchases.status,
  createdAt: schema.purchases.createdAt,
  completedAt: schema.purchases.completedAt,
  stripeSessionId: schema.orders.stripeSessionId,
  serviceId: schema.services.id,
  serviceName: schema.services.name,
  serviceDescription: schema.services.description,
};

export type PurchaseRow = {
  id: string;
  userId: string | null;
  amountCents: number;
  currency: string;
  quantity: number;
  status: schema.PurchaseStatus;
  createdAt: Date;
  completedAt: Date | null;
  stripeSessionId: string | null;
  serviceId: string;
  serviceName: string;
  serviceDescription: string | null;
};

function selectPurchases() {
  return db
    .select(columns)
    .from(schema.purchases)
    .innerJoin(schema.orders, eq(schema.orders.id, schema.purchases.orderId))
    .innerJoin(schema.services, eq(schema.services.id, schema.purchases.serviceId));
}

const newestFirst = [desc(schema.purchases.createdAt), desc(schema.purchases.id)];

/** One customer's purchases, newest first. */
export async function listPurchasesForUser(userId: string): Promise<PurchaseRow[]> {
  if (!isUuid(userId)) return [];
  return selectPurchases()
    .where(and(eq(schema.purchases.userId, userId), inArray(schema.purchases.status, [...VISIBLE_STATUSES])))
    .orderBy(...newestFirst);
}

/** Staff lookup by the customer's e-mail (case-insensitive). */
export async function listPurchasesByEmail(email: string): Promise<PurchaseRow[]> {
  const owner = await db
    .select({ id: schema.users.id })
    .from(schema.users)
    .where(eq(sql`lower(${schema.users.email})`, email.trim().toLowerCase()))
    .limit(1);
  return owner[0] ? listPurchasesForUser(owner[0].id) : [];
}

export async function findPurchase(id: string): Promise<PurchaseRow | null> {
  if (!isUuid(id)) return null;
  const [row] = await selectPurchases().where(eq(schema.purchases.id, id)).limit(1);
  return row ?? null;
}

/**
 * One purchase for someone allowed to see it. Anything else (missing, someone else's, never paid)
 * is the same 404, so ids cannot be probed; an attempt on another customer's purchase is logged.
 */
export async function getPurchaseFor(actor: Actor, id: string): Promise<PurchaseRow> {
  const row = await findPurchase(id);
  const visible = !!row && (can(actor, "purchases:list-any") || (VISIBLE_STATUSES as readonly string[]).includes(row.status));
  if (!row || !visible) throw notFound("Purchase not found.");
  if (!can(actor, "purchase:read", { ownerId: row.userId })) {
    logger.warn({ actorId: actor.id, purchaseId: id, ownerId: row.userId }, "refused access to another customer's purchase");
    throw notFound("Purchase not found.");
  }
  return row;
}

/** Staff move paid work between in progress and completed; other states belong to payments. */
export async function setPurchaseStatus(actor: Actor, id: string, status: WorkStatus): Promise<PurchaseRow> {
  if (!can(actor, "purchase:update-status")) throw new HttpError(403, "You are not allowed to do that.");
  const current = await findPurchase(id);
  if (!current) throw notFound("Purchase not found.");
  if (!(WORK_STATUSES as readonly string[]).includes(current.status)) {
    throw new HttpError(409, "Only paid purchases can be marked in progress or completed.", "CONFLICT");
  }
  if (current.status !== status) {
    await db
      .update(schema.purchases)
      .set({ status, completedAt: status === "completed" ? new Date() : null, updatedAt: new Date() })
      .where(and(eq(schema.purchases.id, id), inArray(schema.purchases.status, [...WORK_STATUSES])));
  }
  return (await findPurchase(id))!;
}

/** Whether this customer holds a paid purchase of the service; the newest such purchase. */
export async function findPaidPurchase(userId: string, serviceId: string, purchaseId?: string | null) {
  if (!isUuid(userId) || !isUuid(serviceId) || (purchaseId && !isUuid(purchaseId))) return null;
  const [row] = await selectPurchases()
    .where(
      and(
        eq(schema.purchases.userId, userId),
        eq(schema.purchases.serviceId, serviceId),
        inArray(schema.purchases.status, [...PAID_STATUSES]),
        purchaseId ? eq(schema.purchases.id, purchaseId) : undefined,
      ),
    )
    .orderBy(...newestFirst)
    .limit(1);
  return row ?? null;
}


/** The Purchase shape of the JSON API (docs/api.md). */
export function toPurchaseJson(row: PurchaseRow): PurchaseJson {
  return {
    _id: row.id,
    id: row.id,
    amount: centsToDollars(row.amountCents),
    currency: row.currency,
    quantity: row.quantity,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    stripeSessionId: row.stripeSessionId,
    service: { _id: row.serviceId, name: row.serviceName, description: row.serviceDescription },
  };
}
