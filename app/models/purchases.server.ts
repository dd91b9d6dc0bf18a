import { and, asc, desc, eq, inArray, isNull, lt, lte, sql, type Placeholder } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";

import { PURCHASE_COMPLETED_DETAIL } from "~/domain/audit";
import { centsToDollars } from "~/domain/format";
import { isUuid, withWireId } from "~/domain/ids";
import { DELETED_EMAIL_LIKE } from "~/domain/own-data";
import { can, type Actor } from "~/domain/permissions";
import { WORK_STATUSES, type Purchase, type PurchaseJson, type WorkStatus } from "~/domain/purchase";
import { db, schema } from "~/utils/db.server";
import { HttpError, notFound } from "~/utils/http.server";
import { logger } from "~/utils/logger.server";

import { recordAudit } from "./audit.server";

/**
 * Purchases as the dashboard and the JSON API see them. A customer sees what they paid for
 * (in progress, completed, refunded); pending and cancelled checkouts were never theirs to work on.
 */
export const VISIBLE_STATUSES = ["in_progress", "completed", "refunded"] as const;
/** Paid purchases: the ones that count as "booked" and can receive reports. */
export const PAID_STATUSES = ["in_progress", "completed"] as const;
export { WORK_STATUSES, type WorkStatus };

const assignee = alias(schema.users, "assignee");
const customer = alias(schema.users, "customer");

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
  assigneeId: schema.purchases.assigneeId,
  assigneeName: assignee.name,
  customerName: customer.name,
  dueAt: schema.purchases.dueAt,
  hasBrief: sql<boolean>`${schema.briefs.id} is not null`,
  briefSubmittedAt: schema.briefs.submittedAt,
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
  assigneeId: string | null;
  assigneeName: string | null;
  customerName: string | null;
  dueAt: Date | null;
  /** Whether the purchase has a brief to answer (its service asked questions when it was paid), and when it was answered. */
  hasBrief: boolean;
  briefSubmittedAt: Date | null;
};

function selectPurchases() {
  return db
    .select(columns)
    .from(schema.purchases)
    .innerJoin(schema.orders, eq(schema.orders.id, schema.purchases.orderId))
    .innerJoin(schema.services, eq(schema.services.id, schema.purchases.serviceId))
    .leftJoin(assignee, eq(assignee.id, schema.purchases.assigneeId))
    .leftJoin(customer, eq(customer.id, schema.purchases.userId))
    .leftJoin(schema.briefs, eq(schema.briefs.purchaseId, schema.purchases.id));
}

const newestFirst = [desc(schema.purchases.createdAt), desc(schema.purchases.id)];

/** One customer's purchases, newest first. */
export async function listPurchasesForUser(userId: string): Promise<PurchaseRow[]> {
  if (!isUuid(userId)) return [];
  return purchasesOfUser.execute({ userId });
}

/** listPurchasesForUser as a select not yet run (a page reads it with others: readTogether); the caller checks the id. */
export function selectPurchasesOfUser(userId: string | Placeholder) {
  return selectPurchases()
    .where(and(eq(schema.purchases.userId, userId), inArray(schema.purchases.status, [...VISIBLE_STATUSES])))
    .orderBy(...newestFirst);
}

/** Built once: the signed-in read of the JSON API runs it on every call (decision 195). */
const purchasesOfUser = selectPurchasesOfUser(sql.placeholder("userId")).prepare("purchases_of_user");

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
    await db.transaction(async (tx) => {
      const changed = await tx
        .update(schema.purchases)
        .set({ status, completedAt: status === "completed" ? new Date() : null, updatedAt: new Date() })
        .where(and(eq(schema.purchases.id, id), inArray(schema.purchases.status, [...WORK_STATUSES])))
        .returning({ id: schema.purchases.id });
      if (changed.length > 0) {
        await recordAudit(
          {
            actor,
            action: "purchase.status",
            target: purchaseTarget(current),
            detail: status === "completed" ? PURCHASE_COMPLETED_DETAIL : "Moved back to in progress",
          },
          tx,
        );
      }
    });
  }
  return (await findPurchase(id))!;
}

export interface PurchaseChanges {
  status?: WorkStatus;
  assigneeId?: string | null;
  dueAt?: Date | null;
}

/**
 * Staff change paid work: its status, who does it and when it is due. Any of the three; an
 * assignee must be an active team member (400 otherwise).
 */
export async function updatePurchase(actor: Actor, id: string, changes: PurchaseChanges): Promise<PurchaseRow> {
  if (!can(actor, "purchase:update-status")) throw new HttpError(403, "You are not allowed to do that.");
  const current = await findPurchase(id);
  if (!current) throw notFound("Purchase not found.");
  if (changes.assigneeId) {
    const [staff] = await db
      .select({ id: schema.users.id })
      .from(schema.users)
      .where(and(eq(schema.users.id, changes.assigneeId), eq(schema.users.role, "team"), isNull(schema.users.disabledAt)))
      .limit(1);
    if (!staff) throw new HttpError(400, "The assignee must be a team member.", "INVALID_INPUT");
  }
  if (changes.status) await setPurchaseStatus(actor, id, changes.status);
  if (changes.assigneeId !== undefined || changes.dueAt !== undefined) {
    await db.transaction(async (tx) => {
      const [before] = await tx.select({ assigneeId: schema.purchases.assigneeId }).from(schema.purchases).where(eq(schema.purchases.id, id)).for("update");
      await tx
        .update(schema.purchases)
        .set({
          ...(changes.assigneeId !== undefined ? { assigneeId: changes.assigneeId } : {}),
          ...(changes.dueAt !== undefined ? { dueAt: changes.dueAt } : {}),
          updatedAt: new Date(),
        })
        .where(eq(schema.purchases.id, id));
      // Who does the work is recorded; a due date alone is planning, not a change a customer sees.
      if (changes.assigneeId !== undefined && before?.assigneeId !== changes.assigneeId) {
        const [assignee] = changes.assigneeId
          ? await tx.select({ name: schema.users.name }).from(schema.users).where(eq(schema.users.id, changes.assigneeId))
          : [];
        await recordAudit(
          { actor, action: "purchase.assign", target: purchaseTarget(current), detail: assignee ? `Assigned to ${assignee.name}` : "Unassigned" },
          tx,
        );
      }
    });
  }
  return (await findPurchase(id))!;
}

function purchaseTarget(row: PurchaseRow) {
  return { kind: "purchase" as const, id: row.id, label: `${row.serviceName} for ${row.customerName ?? "a guest"}` };
}

export type DueFilter = "overdue" | "week";

/**
 * "My work": the open (in progress) purchases assigned to one staff member, soonest due first,
 * those without a date last. `overdue`: due before now; `week`: due within the next seven days
 * (overdue included).
 */
/**
 * Open work nobody is left to receive: the purchase's account was deleted and its client has no
 * member left (a client whose first account went keeps its work while others remain).
 */
const stillWanted = sql`(not exists (select 1 from ${schema.users} as owner where owner.id = ${schema.purchases.userId} and owner.email like ${DELETED_EMAIL_LIKE})
  or exists (select 1 from ${schema.clientMembers} as member where member.client_id = ${schema.purchases.userId} and member.removed_at is null))`;

export async function listAssignedPurchases(assigneeId: string, due?: DueFilter, now = new Date()): Promise<PurchaseRow[]> {
  const week = new Date(now.getTime() + 7 * 24 * 60 * 60 * 1000);
  return selectPurchases()
    .where(
      and(
        eq(schema.purchases.assigneeId, assigneeId),
        eq(schema.purchases.status, "in_progress"),
        stillWanted,
        due === "overdue" ? lt(schema.purchases.dueAt, now) : due === "week" ? lte(schema.purchases.dueAt, week) : undefined,
      ),
    )
    .orderBy(sql`${schema.purchases.dueAt} asc nulls last`, asc(schema.purchases.createdAt), asc(schema.purchases.id))
    .limit(200);
}

/** Whether a staff member has open work assigned (they land on "My work" after signing in). */
export async function hasAssignedWork(assigneeId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: schema.purchases.id })
    .from(schema.purchases)
    .where(and(eq(schema.purchases.assigneeId, assigneeId), eq(schema.purchases.status, "in_progress"), stillWanted))
    .limit(1);
  return !!row;
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

/** The Purchase shape of the JSON API (docs/api.md): dollars at the API's edge. */
export function toPurchaseJson(row: PurchaseRow): PurchaseJson {
  const { amountCents, service, assignee, ...purchase } = toPurchase(row);
  return { _id: purchase.id, ...purchase, amount: centsToDollars(amountCents), service: withWireId(service), assignee: assignee && withWireId(assignee) };
}

/** A purchase as the screens take it (money in cents). */
export function toPurchase(row: PurchaseRow): Purchase {
  return {
    id: row.id,
    amountCents: row.amountCents,
    currency: row.currency,
    quantity: row.quantity,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    stripeSessionId: row.stripeSessionId,
    service: { id: row.serviceId, name: row.serviceName, description: row.serviceDescription },
    assignee: row.assigneeId ? { id: row.assigneeId, name: row.assigneeName ?? "" } : null,
    dueAt: row.dueAt?.toISOString() ?? null,
    brief: { required: row.hasBrief, submittedAt: row.briefSubmittedAt?.toISOString() ?? null },
  };
}
