import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";

import * as count from "~/routes/api+/users+/count";
import { db, schema } from "~/utils/db.server";

import { call, catalogue, createAccount, createPurchase, readJson } from "../../tests/support/dashboard-helpers";
import { setPurchaseStatus } from "./purchases.server";
import { getCustomerCounts, getTeamCounts } from "./stats.server";

type Counts = { status: string; data: { serviceCounts: Record<string, number> } };

let services: Awaited<ReturnType<typeof catalogue>>;
beforeAll(async () => {
  services = await catalogue();
});

describe("overview counts", () => {
  it("match the database after orders, completions and a refund", async () => {
    const staff = await createAccount("team");
    const start = await getTeamCounts();
    const alice = await createAccount("user");
    const bob = await createAccount("user");
    await createAccount("user", { disabledAt: new Date() });

    const [audit, calendar, kit] = services;
    const a1 = await createPurchase(alice.user.id, audit);
    const a2 = await createPurchase(alice.user.id, calendar, { quantity: 2 });
    const b1 = await createPurchase(bob.user.id, kit);
    await createPurchase(bob.user.id, kit, { status: "pending" });
    await createPurchase(bob.user.id, audit, { status: "cancelled" });

    const paid = audit.priceCents + calendar.priceCents * 2 + kit.priceCents;
    expect(await getTeamCounts()).toEqual({
      totalRevenueCents: start.totalRevenueCents + paid,
      servicesBooked: start.servicesBooked + 3,
      totalActiveUsers: start.totalActiveUsers + 2,
    });
    expect(await getCustomerCounts(alice.user.id)).toEqual({ totalServicesBooked: 2, completed: 0, inProgress: 2 });

    await setPurchaseStatus(staff.user, a1.purchase.id, "completed");
    expect(await getCustomerCounts(alice.user.id)).toEqual({ totalServicesBooked: 2, completed: 1, inProgress: 1 });

    // A refund (as payments records it): the purchase and its order are refunded.
    await db.update(schema.purchases).set({ status: "refunded" }).where(eq(schema.purchases.id, a2.purchase.id));
    await db.update(schema.orders).set({ status: "refunded" }).where(eq(schema.orders.id, a2.order.id));
    expect(await getTeamCounts()).toEqual({
      totalRevenueCents: start.totalRevenueCents + paid - calendar.priceCents * 2,
      servicesBooked: start.servicesBooked + 2,
      totalActiveUsers: start.totalActiveUsers + 2,
    });
    expect(await getCustomerCounts(alice.user.id)).toEqual({ totalServicesBooked: 1, completed: 1, inProgress: 0 });

    // A paid plan adds its total to revenue.
    await db
      .insert(schema.orders)
      .values({ kind: "subscription", email: bob.user.email, name: "Bob", userId: bob.user.id, status: "paid", totalCents: 15900, planId: "pro" });
    expect((await getTeamCounts()).totalRevenueCents).toBe(start.totalRevenueCents + paid - calendar.priceCents * 2 + 15900);

    // A plan subscriber's counters count the plan (decision 163): running is in progress, ended is completed.
    const carol = await createAccount("user");
    expect(await getCustomerCounts(carol.user.id)).toEqual({ totalServicesBooked: 0, completed: 0, inProgress: 0 });
    const [planOrder] = await db
      .insert(schema.orders)
      .values({ kind: "subscription", email: carol.user.email, name: "Carol", userId: carol.user.id, status: "paid", totalCents: 15900, planId: "pro" })
      .returning();
    const [plan] = await db
      .insert(schema.subscriptions)
      .values({
        orderId: planOrder.id,
        userId: carol.user.id,
        planId: "pro",
        status: "active",
        priceCents: 15900,
        stripeSubscriptionId: `sub_test_${planOrder.id}`,
      })
      .returning();
    expect(await getCustomerCounts(carol.user.id)).toEqual({ totalServicesBooked: 1, completed: 0, inProgress: 1 });
    await db.update(schema.subscriptions).set({ status: "past_due" }).where(eq(schema.subscriptions.id, plan.id));
    expect(await getCustomerCounts(carol.user.id)).toEqual({ totalServicesBooked: 1, completed: 0, inProgress: 1 });
    await db.update(schema.subscriptions).set({ status: "canceled" }).where(eq(schema.subscriptions.id, plan.id));
    expect(await getCustomerCounts(carol.user.id)).toEqual({ totalServicesBooked: 1, completed: 1, inProgress: 0 });
    await db.update(schema.subscriptions).set({ status: "incomplete" }).where(eq(schema.subscriptions.id, plan.id));
    expect(await getCustomerCounts(carol.user.id)).toEqual({ totalServicesBooked: 0, completed: 0, inProgress: 0 });

    // The API answers with the same numbers, shaped per role.
    const team = await readJson<Counts>(await call(count.loader, "/api/users/count", { auth: staff }));
    const { totalRevenueCents, ...counts } = await getTeamCounts();
    // The API's edge speaks dollars.
    expect(team).toEqual({ status: "success", data: { serviceCounts: { ...counts, totalRevenue: totalRevenueCents / 100 } } });
    const mine = await readJson<Counts>(await call(count.loader, "/api/users/count", { auth: { cookie: bob.cookie } }));
    expect(mine).toEqual({ status: "success", data: { serviceCounts: { totalServicesBooked: 1, completed: 0, inProgress: 1 } } });
    expect(b1.purchase.status).toBe("in_progress");
  });

  it("refuses the anonymous", async () => {
    const response = await call(count.loader, "/api/users/count");
    expect(response.status).toBe(401);
  });
});
