import { and, eq, isNull, sql } from "drizzle-orm";

import { isUuid } from "~/domain/ids";
import type { Role } from "~/domain/status";
import { db, schema, type Db, type Tx } from "~/utils/db.server";
import { hashPassword, verifyPassword } from "~/utils/password.server";

/** Accounts: looked up by e-mail without regard to case (the unique index is on lower(email)). */

export type User = typeof schema.users.$inferSelect;
type Executor = Db | Tx;

export function normalizeEmail(email: string) {
  return email.trim().toLowerCase();
}

export async function findUserByEmail(email: string, tx: Executor = db): Promise<User | null> {
  const [user] = await tx
    .select()
    .from(schema.users)
    .where(eq(sql`lower(${schema.users.email})`, normalizeEmail(email)))
    .limit(1);
  return user ?? null;
}

export async function getUserById(id: string, tx: Executor = db): Promise<User | null> {
  if (!isUuid(id)) return null;
  const [user] = await tx.select().from(schema.users).where(eq(schema.users.id, id)).limit(1);
  return user ?? null;
}

/** True once: on the account's first dashboard visit (then it is marked, and later visits are false). */
export async function markWelcomed(userId: string): Promise<boolean> {
  const marked = await db
    .update(schema.users)
    .set({ welcomedAt: new Date() })
    .where(and(eq(schema.users.id, userId), isNull(schema.users.welcomedAt)))
    .returning({ id: schema.users.id });
  return marked.length > 0;
}

export interface NewUser {
  email: string;
  name: string;
  role?: Role;
  /** Omit to create an account that signs in only after setting a password through a link. */
  password?: string;
}

/** A new account; a customer's starts a client of one (`clientId`: a client to join instead, as an invited member does). */
export async function createUser(input: NewUser, tx: Executor = db, clientId?: string): Promise<User> {
  const passwordHash = input.password === undefined ? null : await hashPassword(input.password);
  const [user] = await tx
    .insert(schema.users)
    .values({ email: normalizeEmail(input.email), name: input.name.trim(), role: input.role ?? "user", passwordHash })
    .returning();
  if (user!.role === "user" && !clientId) await startClientOfOne(tx, user!);
  return user!;
}

/**
 * A new customer account's client of one (decision 283): its owner, named after them, with the
 * account's id, so what the account buys is the client's without a copy.
 */
export async function startClientOfOne(tx: Executor, user: { id: string; name: string }) {
  await tx.insert(schema.clients).values({ id: user.id, name: user.name }).onConflictDoNothing();
  await tx.insert(schema.clientMembers).values({ userId: user.id, clientId: user.id, role: "owner", joinedAt: new Date() }).onConflictDoNothing();
}

export interface UserChanges {
  name?: string;
  role?: Role;
  password?: string;
}

export async function updateUser(id: string, changes: UserChanges, tx: Executor = db): Promise<User> {
  const passwordHash = changes.password === undefined ? undefined : await hashPassword(changes.password);
  const [user] = await tx
    .update(schema.users)
    .set({
      ...(changes.name === undefined ? {} : { name: changes.name.trim() }),
      ...(changes.role === undefined ? {} : { role: changes.role }),
      ...(passwordHash === undefined ? {} : { passwordHash }),
      updatedAt: new Date(),
    })
    .where(eq(schema.users.id, id))
    .returning();
  if (!user) throw new Error(`No user ${id}`);
  return user;
}

/**
 * The buyer's account for a paid order: the existing account with this e-mail,
 * whatever its case, or a new customer without a password. Safe against two fulfilments racing:
 * the insert yields to the unique index and the winner's row is read back.
 */
export async function findOrCreateCustomer(email: string, name: string, tx: Executor = db): Promise<{ user: User; created: boolean }> {
  const existing = await findUserByEmail(email, tx);
  if (existing) return { user: existing, created: false };
  const [inserted] = await tx
    .insert(schema.users)
    .values({ email: normalizeEmail(email), name: name.trim() || normalizeEmail(email), role: "user" })
    .onConflictDoNothing()
    .returning();
  if (inserted) {
    await startClientOfOne(tx, inserted);
    return { user: inserted, created: true };
  }
  const winner = await findUserByEmail(email, tx);
  if (!winner) throw new Error(`Could not create or find the account for ${email}`);
  return { user: winner, created: false };
}

/**
 * The account for these credentials, or null. An unknown e-mail, a disabled account and an
 * account without a password all still verify against a real argon2 hash, so a wrong password
 * and an unknown e-mail take the same time.
 */
export async function verifyLogin(email: string, password: string): Promise<User | null> {
  const user = await findUserByEmail(email);
  const usable = user && !user.disabledAt ? user : null;
  const ok = await verifyPassword(password, usable?.passwordHash);
  return ok ? usable : null;
}

/** The user as the JSON API shows it (docs/api.md). */
export function toApiUser(user: Pick<User, "id" | "name" | "email" | "role">) {
  return { _id: user.id, id: user.id, name: user.name, email: user.email, role: user.role };
}
