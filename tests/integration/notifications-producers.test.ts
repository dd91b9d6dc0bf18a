import { and, eq, isNull } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";

import { supportRoomId } from "~/domain/chat";
import { BELL_COUNT_CAP } from "~/domain/notifications";
import { readCustomerBadges, readStaffBadges } from "~/models/badges.server";
import { bellCount, listNotifications, notificationEvents, notify, unreadCount } from "~/models/notifications.server";
import { createServicesOrder, fulfilCheckoutSession, testCheckoutSession } from "~/models/orders.server";
import * as serviceBrief from "~/routes/api+/services+/$id.brief";
import * as purchaseBrief from "~/routes/api+/services+/purchases.$id.brief";
import { settleBackgroundTasks } from "~/utils/background.server";
import { db, schema } from "~/utils/db.server";

import { call } from "../support/dashboard-helpers";
import { bearerFor, catalogue, createAccount, postInThread, type Account } from "../support/factories";
import { uniqueEmail } from "../support/requests";

/* Who is told what (docs/decisions/289): a paid order tells the team, a brief to answer tells the buyer, a submitted brief the team. */

const json = (body: unknown) => ({ body: JSON.stringify(body), headers: { "Content-Type": "application/json" } });

let staff: Account;
let services: Awaited<ReturnType<typeof catalogue>>;

beforeAll(async () => {
  services = await catalogue();
  staff = await createAccount({ role: "team", name: "Bell Staff" });
});

describe("notifications from orders and briefs", () => {
  test("a paid order with a brief: staff see the order, the buyer is asked for the brief, staff see it once submitted", async () => {
    const service = services[0]!;
    const questions = [{ key: "brand", label: "Brand name", kind: "text", required: true }];
    expect(
      (await call(serviceBrief.action, `/api/services/${service.id}/brief`, { auth: staff, method: "PUT", params: { id: service.id }, ...json({ questions }) }))
        .status,
    ).toBe(200);

    const email = uniqueEmail("bell");
    const started = await createServicesOrder({ name: "Bell Buyer", email }, [service.id]);
    const [order] = await db.select().from(schema.orders).where(eq(schema.orders.id, started.orderId));
    expect(await fulfilCheckoutSession(testCheckoutSession(order!, true))).toBe("fulfilled");
    const [buyer] = await db.select().from(schema.users).where(eq(schema.users.email, email));

    const staffSees = await listNotifications(staff.id);
    expect(staffSees.find((item) => item.url === `/dashboard/orders/${order!.id}`)).toMatchObject({ kind: "order", title: "New order from Bell Buyer" });
    expect((await listNotifications(buyer!.id)).map((item) => item.kind)).toEqual(["brief_needed"]);

    const [purchase] = await db
      .select()
      .from(schema.purchases)
      .where(and(eq(schema.purchases.orderId, order!.id), eq(schema.purchases.serviceId, service.id)));
    const auth = { ...buyer!, user: buyer!, bearer: await bearerFor(buyer!.id) } as unknown as Account;
    const answer = () =>
      call(purchaseBrief.action, `/api/services/purchases/${purchase!.id}/brief`, {
        auth,
        method: "PUT",
        params: { id: purchase!.id },
        ...json({ answers: { brand: "Bell & Co" } }),
      });
    expect((await answer()).status).toBe(200);
    // A correction later tells no one again.
    expect((await answer()).status).toBe(200);
    const submitted = (await listNotifications(staff.id)).filter(
      (item) => item.title === `Brief submitted: ${service.name}` && item.url === `/dashboard/users/${buyer!.id}`,
    );
    expect(submitted).toHaveLength(1);
  });
});

describe("notifications from support messages", () => {
  const told = async (send: () => Promise<unknown>) => {
    const events: { userId: string; title: string; url: string; unread: number }[] = [];
    const listener = (userId: string, notification: { title: string; url: string }, unread: number) =>
      events.push({ userId, title: notification.title, url: notification.url, unread });
    notificationEvents.on("created", listener);
    try {
      await send();
      // The live pushes follow the answer.
      await settleBackgroundTasks();
    } finally {
      notificationEvents.off("created", listener);
    }
    return events;
  };
  // A thread whose assignee is set before its first message.
  const assign = (customer: Account, assigneeId: string | null) =>
    db
      .insert(schema.chatThreads)
      .values({ roomId: supportRoomId(customer.id), customerId: customer.id, assigneeId })
      .onConflictDoUpdate({ target: schema.chatThreads.roomId, set: { assigneeId } });

  test("staff's reply tells the client's members who chat (not billing, removed or disabled ones), once each, with their unread count", async () => {
    const owner = await createAccount({ name: "Olive Owner" });
    const member = await createAccount({ name: "Mo Member" });
    const billing = await createAccount({ name: "Bill Only" });
    const removed = await createAccount({ name: "Gone Member" });
    const disabled = await createAccount({ name: "Off Member", disabledAt: new Date() });
    // Each account starts as the owner of its own client of one: these join the owner's client.
    const join = (account: Account, role: "member" | "billing", removedAt: Date | null = null) =>
      db.update(schema.clientMembers).set({ clientId: owner.id, role, removedAt }).where(eq(schema.clientMembers.userId, account.id));
    await join(member, "member");
    await join(billing, "billing");
    await join(removed, "member", new Date());
    await join(disabled, "member");
    await db.insert(schema.notificationSettings).values({ userId: member.id, email: { message: "daily" } });

    const events = await told(() => postInThread(owner, "x".repeat(200), staff));
    expect(events.map((event) => event.userId).sort()).toEqual([owner.id, member.id].sort());
    expect(events.every((event) => event.title === "New message from Bell Staff" && event.url === "/dashboard/messages" && event.unread === 1)).toBe(true);
    const [stored] = await listNotifications(member.id);
    expect(stored).toMatchObject({ kind: "message", body: `${"x".repeat(139)}…`, readAt: null });
    const rows = await db.select().from(schema.notifications).where(eq(schema.notifications.kind, "message"));
    expect(Object.fromEntries(rows.filter((row) => [owner.id, member.id].includes(row.userId)).map((row) => [row.userId, row.email]))).toEqual({
      [owner.id]: "instant",
      [member.id]: "daily",
    });

    const again = await told(() => postInThread(owner, "And another thing", staff));
    expect(again.map((event) => event.unread)).toEqual([2, 2]);
  });

  test("staff's reply to a customer not yet moved into a client of one tells the customer", async () => {
    const customer = await createAccount({ name: "Solo Customer" });
    await db.delete(schema.clientMembers).where(eq(schema.clientMembers.userId, customer.id));
    const events = await told(() => postInThread(customer, "Hello", staff));
    expect(events).toEqual([{ userId: customer.id, title: "New message from Bell Staff", url: "/dashboard/messages", unread: 1 }]);
  });

  test("a client's message tells the thread's assignee, else every active staff member", async () => {
    const customer = await createAccount({ name: "Asking Customer" });
    const assignee = await createAccount({ role: "team", name: "Assigned Staff" });
    const away = await createAccount({ role: "team", name: "Disabled Staff", disabledAt: new Date() });
    const url = `/dashboard/inbox/${customer.id}`;

    await assign(customer, assignee.id);
    const assigned = await told(() => postInThread(customer, "Is it done?"));
    expect(assigned).toEqual([{ userId: assignee.id, title: "New message from Asking Customer", url, unread: 1 }]);

    await assign(customer, null);
    const everyone = await told(() => postInThread(customer, "Anyone?"));
    const active = await db
      .select({ id: schema.users.id })
      .from(schema.users)
      .where(and(eq(schema.users.role, "team"), isNull(schema.users.disabledAt)));
    expect(everyone.map((event) => event.userId).sort()).toEqual(active.map((row) => row.id).sort());
    expect(everyone.map((event) => event.userId)).not.toContain(away.id);
    expect(everyone.find((event) => event.userId === assignee.id)).toMatchObject({ url, unread: 2 });
  });

  test("the bell counts to 100 however many are unread; the notifications page and the API count them all", async () => {
    const customer = await createAccount({ name: "Busy Customer" });
    const assignee = await createAccount({ role: "team", name: "Busy Staff" });
    await assign(customer, assignee.id);
    const unopened = (userId: string, many: number) =>
      db
        .insert(schema.notifications)
        .values(Array.from({ length: many }, (_, i) => ({ userId, kind: "order" as const, title: `Older ${i}`, url: "/dashboard" })));
    await unopened(assignee.id, 98);

    // 99 unread after it, then 100, then still 100 (the bell's "99+").
    const pushed: number[] = [];
    for (const text of ["One", "Two", "Three"]) pushed.push(...(await told(() => postInThread(customer, text))).map((event) => event.unread));
    expect(pushed).toEqual([99, BELL_COUNT_CAP, BELL_COUNT_CAP]);
    expect(await bellCount(assignee.id)).toBe(BELL_COUNT_CAP);
    expect((await readStaffBadges(assignee.id)).notifications).toBe(BELL_COUNT_CAP);
    expect(await unreadCount(assignee.id)).toBe(101);

    // Every other kind's push says the same, and a client of one's badges too.
    await unopened(customer.id, 150);
    const other = await told(() => notify([customer.id], { kind: "report_ready", title: "Your report", url: "/dashboard/reports" }));
    expect(other.map((event) => event.unread)).toEqual([BELL_COUNT_CAP]);
    expect((await readCustomerBadges(customer.id)).notifications).toBe(BELL_COUNT_CAP);
    expect(await unreadCount(customer.id)).toBe(151);
  });
});
