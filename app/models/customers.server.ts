import { and, desc, eq, ilike, or, sql } from "drizzle-orm";

import { isUuid } from "~/domain/ids";
import { db, schema } from "~/utils/db.server";
import { likePattern } from "~/utils/sql.server";

import { clientOfAccount } from "./clients.server";
import { toApiUser } from "./users.server";

/**
 * The staff's view of customer accounts: search by name or e-mail (or their client's name), paged,
 * newest first. Each account names its client (decision 295).
 */

export const USERS_PAGE_SIZE = 20;
export const USERS_MAX_PAGE_SIZE = 100;

export interface CustomerListQuery {
  search?: string;
  page?: number;
  limit?: number;
}

export interface CustomerSummary {
  id: string;
  name: string;
  email: string;
  role: schema.Role;
  createdAt: Date;
}

/** An account of the list, with the id of the client it belongs to (its own for a client of one). */
interface ListedCustomer extends CustomerSummary {
  clientId: string;
}

const summaryColumns = {
  id: schema.users.id,
  name: schema.users.name,
  email: schema.users.email,
  role: schema.users.role,
  createdAt: schema.users.createdAt,
};

export async function listCustomers({ search, page = 1, limit = USERS_PAGE_SIZE }: CustomerListQuery = {}) {
  const term = search?.trim();
  const m = schema.clientMembers;
  const client = clientOfAccount(schema.users.id, { formerToo: true });
  const clientNamed = (pattern: string) =>
    sql`exists (select 1 from ${m} join ${schema.clients} on ${schema.clients.id} = ${m.clientId} where ${m.userId} = ${schema.users.id} and ${schema.clients.name} ilike ${pattern})`;
  const where = and(
    eq(schema.users.role, "user"),
    term ? or(ilike(schema.users.name, likePattern(term)), ilike(schema.users.email, likePattern(term)), clientNamed(likePattern(term))) : undefined,
  );
  const size = Math.min(Math.max(1, Math.floor(limit)), USERS_MAX_PAGE_SIZE);
  const offset = (Math.max(1, Math.floor(page)) - 1) * size;
  const [users, [{ total }]] = await Promise.all([
    db
      .select({ ...summaryColumns, clientId: client.id })
      .from(schema.users)
      .leftJoin(...client.membership)
      .where(where)
      .orderBy(desc(schema.users.createdAt), desc(schema.users.id))
      .limit(size)
      .offset(offset),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(schema.users)
      .where(where),
  ]);
  return { users: users as ListedCustomer[], total, page: Math.max(1, Math.floor(page)), limit: size };
}

/** A customer account by id; staff accounts and unknown ids are null. */
export async function findCustomer(id: string): Promise<CustomerSummary | null> {
  if (!isUuid(id)) return null;
  const [row] = await db
    .select(summaryColumns)
    .from(schema.users)
    .where(and(eq(schema.users.id, id), eq(schema.users.role, "user")))
    .limit(1);
  return (row as CustomerSummary | undefined) ?? null;
}

/** The User shape of the JSON API: the signed-in user's fields (toApiUser) and when the account was made. */
export function toUserJson(user: CustomerSummary) {
  return { ...toApiUser(user), createdAt: user.createdAt.toISOString() };
}
