import { eq } from "drizzle-orm";

import type { PurchaseStatus } from "#db/schema";
import { seedCatalogue } from "#db/seed";
import { supportRoomId } from "~/domain/chat";
import { storeMessage } from "~/models/chat-send.server";
import { createSession } from "~/models/sessions.server";
import { createUser } from "~/models/users.server";
import { db, schema } from "~/utils/db.server";
import { sessionCookieHeader } from "~/web/auth.server";

import { unique, uniqueEmail } from "./requests";

/*
 * The one place tests make rows: accounts (with a bearer token and a browser cookie), the
 * catalogue, orders and purchases, support threads. Everything goes through the app's own models and the real
 * database of the test file; names and e-mails are unique so files and tests never collide.
 */

export { unique, uniqueEmail };

export type Role = "user" | "team";
export interface AccountOptions {
  role?: Role;
  name?: string;
  email?: string;
  /** Hashed like a real sign-up; without it the account has no password (like a buyer's before set-password). */
  password?: string;
  disabledAt?: Date;
}

/** The `Cookie` header value a browser would send for this session. */
export async function cookieOf(session: { token: string; expiresAt: Date }) {
  return (await sessionCookieHeader(session.token, session.expiresAt)).split(";")[0]!;
}

/** The `Cookie` header value a browser would send for a fresh session of this user. */
export async function sessionCookieFor(userId: string) {
  return cookieOf(await createSession(userId, "cookie"));
}

export async function bearerFor(userId: string) {
  return (await createSession(userId, "bearer")).token;
}

/** A bare account (no sessions): the user row as the app's createUser makes it. */
export function createTestUser(options: AccountOptions = {}) {
  const role = options.role ?? "user";
  return createUser({
    email: options.email ?? uniqueEmail(role === "team" ? "staff" : "customer"),
    name: options.name ?? (role === "team" ? "Staff Member" : "Customer Person"),
    role,
    password: options.password,
  });
}

/** An account with a bearer token (`bearer`, also `token`) and a browser session (`cookie`). */
export async function createAccount(options: AccountOptions = {}) {
  let user = await createTestUser(options);
  if (options.disabledAt) {
    [user] = await db.update(schema.users).set({ disabledAt: options.disabledAt }).where(eq(schema.users.id, user.id)).returning();
  }
  const bearer = await bearerFor(user.id);
  const cookie = await sessionCookieFor(user.id);
  return { user, id: user.id, name: user.name, email: user.email, role: user.role as Role, bearer, token: bearer, cookie };
}
export type Account = Awaited<ReturnType<typeof createAccount>>;

/** The seeded catalogue, in display order. */
export async function catalogue() {
  await seedCatalogue(db);
  return db.select().from(schema.services).orderBy(schema.services.sortOrder);
}

/** A paid order of one service for a customer (or a guest: null), its purchase in the given status. */
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
      email: uniqueEmail("buyer"),
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
    .values({ orderId: order.id, serviceId: service.id, userId, amountCents: service.priceCents * quantity, quantity, status, createdAt: options.createdAt })
    .returning();
  return { order, purchase };
}

/** Someone in a support thread: a customer or a staff member (an Account or a bare user row fits). */
export interface ThreadPerson {
  id: string;
  name: string;
  role?: string;
}

/** One support message in `customer`'s thread, from them or from staff, stored as the chat stores it. */
export function postInThread(customer: ThreadPerson, text: string, from: ThreadPerson = customer) {
  return storeMessage({
    roomId: supportRoomId(customer.id),
    sender: { _id: from.id, name: from.name, profileImage: null },
    receiverId: from.role === "team" ? customer.id : null,
    customerId: customer.id,
    message: text,
  });
}

/** A customer account whose support thread holds `messages` (theirs, oldest first). */
export async function createCustomerWithThread(options: Omit<AccountOptions, "role"> & { messages?: string[] } = {}) {
  const { messages = ["Hello, I have a question about my order."], ...account } = options;
  const customer = await createAccount({ ...account, role: "user" });
  for (const text of messages) await postInThread(customer, text);
  return customer;
}
