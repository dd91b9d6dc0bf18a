import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";

import { createPlanOrder, fulfilCheckoutSession, testCheckoutSession } from "~/models/orders.server";
import { previewPlanSwitch } from "~/models/plan-switch.server";
import { getTeamCounts } from "~/models/stats.server";
import * as testBilling from "~/routes/billing.[test]._index";
import * as teamPage from "~/routes/dashboard+/_staff+/team";
import { db, schema } from "~/utils/db.server";

import { settle } from "../support/call-route";
import { freshContext, seedServices, uniqueEmail } from "../support/payments-helpers";
import { formRequest } from "../support/requests";
import { createTestUser, sessionCookieFor } from "./authorization/helpers";

/*
 * Money and access actions ask first (decision 177): switching plans shows the price today (the
 * proration) and from the next period before anything is charged, and charges exactly that;
 * disabling a colleague names who loses access before it happens. Test mode (no Stripe key).
 */

beforeAll(async () => {
  await seedServices();
});

async function subscribe(planId: string) {
  const started = await createPlanOrder({ name: "Sol Switch", email: uniqueEmail("switch") }, planId);
  const [order] = await db.select().from(schema.orders).where(eq(schema.orders.id, started.orderId));
  expect(await fulfilCheckoutSession(testCheckoutSession(order, true))).toBe("fulfilled");
  const [subscription] = await db.select().from(schema.subscriptions).where(eq(schema.subscriptions.orderId, order.id));
  return { subscription, cookie: await sessionCookieFor(subscription.userId!) };
}

const change = (cookie: string, fields: Record<string, string>) =>
  settle(() => testBilling.action({ request: formRequest("/billing/test", fields, { Cookie: cookie }), params: {}, context: freshContext() }));

describe("switching plans", () => {
  test("the preview prorates like Stripe: the new price for the time left, less the old plan's unused time", async () => {
    const { subscription } = await subscribe("pro");
    // A 31-day period (January) with exactly half of it left.
    const row = { ...subscription, currentPeriodEnd: new Date("2027-02-01T00:00:00Z") };
    const up = await previewPlanSwitch(row, "vip", new Date("2027-01-16T12:00:00Z"));
    expect(up).toMatchObject({
      from: { key: "pro", priceCents: 15900 },
      to: { key: "vip", priceCents: 58900 },
      chargeCents: 29450,
      creditCents: 7950,
      dueNowCents: 21500,
      carriedCreditCents: 0,
    });
    // Down to STARTER: nothing to pay today; the surplus is credited to the next invoices.
    const down = await previewPlanSwitch(row, "starter", new Date("2027-01-16T12:00:00Z"));
    expect(down).toMatchObject({ chargeCents: 2450, creditCents: 7950, dueNowCents: 0, carriedCreditCents: 5500 });
    await expect(previewPlanSwitch(row, "pro")).rejects.toMatchObject({ status: 409 });
  });

  test("$159 → $589 asks first with the price; confirmed, it charges the previewed proration as a plan payment", async () => {
    const { subscription, cookie } = await subscribe("pro");
    const before = (await getTeamCounts()).totalRevenueCents;
    const review = await change(cookie, { intent: "switch", subscriptionId: subscription.id, planKey: "vip" });
    expect(review.status).toBe(200);
    const preview = review.data.confirm.preview;
    expect(preview).toMatchObject({ from: { priceCents: 15900 }, to: { priceCents: 58900 } });
    expect(preview.dueNowCents).toBe(preview.chargeCents - preview.creditCents);
    // A period just begun: close to the whole difference ($430).
    expect(preview.dueNowCents).toBeGreaterThan(42_000);
    expect((await db.select().from(schema.subscriptions).where(eq(schema.subscriptions.id, subscription.id)))[0].planId).toBe("pro");
    expect((await getTeamCounts()).totalRevenueCents).toBe(before);

    const done = await change(cookie, {
      intent: "switch",
      subscriptionId: subscription.id,
      planKey: "vip",
      prorationDate: String(preview.prorationDate),
      confirm: "yes",
    });
    expect(done.status).toBe(302);
    expect((await db.select().from(schema.subscriptions).where(eq(schema.subscriptions.id, subscription.id)))[0]).toMatchObject({
      planId: "vip",
      priceCents: 58900,
    });
    const payments = await db.select().from(schema.orders).where(eq(schema.orders.subscriptionId, subscription.id));
    expect(payments.map((o) => [o.kind, o.totalCents])).toEqual([["renewal", preview.dueNowCents]]);
    expect((await getTeamCounts()).totalRevenueCents).toBe(before + preview.dueNowCents);
  });
});

describe("disabling a colleague", () => {
  test("the first post names who loses access and changes nothing; the confirmed one disables", async () => {
    const me = await createTestUser({ role: "team", name: "Mo Manager" });
    const colleague = await createTestUser({ role: "team", name: "Cal Colleague" });
    const cookie = await sessionCookieFor(me.id);
    const post = (fields: Record<string, string>) =>
      settle(() => teamPage.action({ request: formRequest("/dashboard/team", fields, { Cookie: cookie }), params: {}, context: freshContext() }));
    const disabledAt = async () => (await db.select().from(schema.users).where(eq(schema.users.id, colleague.id)))[0].disabledAt;

    expect(await post({ intent: "disable", userId: colleague.id })).toMatchObject({
      status: 200,
      data: { intent: "confirm-disable", member: { id: colleague.id, name: "Cal Colleague" } },
    });
    expect(await disabledAt()).toBeNull();
    expect((await post({ intent: "disable", userId: me.id })).status).toBe(404);
    expect((await post({ intent: "disable", userId: colleague.id, confirm: "yes" })).status).toBe(302);
    expect(await disabledAt()).toBeInstanceOf(Date);
  });
});
