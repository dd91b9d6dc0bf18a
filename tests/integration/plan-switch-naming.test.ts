import { buffer } from "node:stream/consumers";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";

import { accountExport } from "~/models/account-export.server";
import { ordersCsvStream } from "~/models/orders-export.server";
import { getOrderDetail, listOrders } from "~/models/orders-list.server";
import { createPlanOrder, fulfilCheckoutSession, testCheckoutSession } from "~/models/orders.server";
import { getReceiptFor, listReceiptsForUser } from "~/models/receipts.server";
import * as testBilling from "~/routes/billing.[test]._index";
import { db, schema } from "~/utils/db.server";

import { settle } from "../support/call-route";
import { freshContext, seedServices, uniqueEmail } from "../support/payments-helpers";
import { formRequest } from "../support/requests";
import { readZip } from "../support/zip";
import { sessionCookieFor } from "./authorization/helpers";

/*
 * A plan switch in the middle of a period is charged at once (the new plan's time left, less the
 * old plan's unused time). That payment is named "Switch to <new plan>, prorated" in the same words
 * on the receipt, the staff orders list, the order's page, the CSV and the account's data export
 * (decision 264); a later month stays "<plan> (monthly renewal)". Test mode (no Stripe key).
 */

const SWITCH_NAME = "Switch to PRO PACKAGE, prorated";

beforeAll(async () => {
  await seedServices();
});

async function subscribeAndSwitch() {
  const email = uniqueEmail("switch-name");
  const started = await createPlanOrder({ name: "Sam Switcher", email }, "starter");
  const [signUp] = await db.select().from(schema.orders).where(eq(schema.orders.id, started.orderId));
  expect(await fulfilCheckoutSession(testCheckoutSession(signUp, true))).toBe("fulfilled");
  const [subscription] = await db.select().from(schema.subscriptions).where(eq(schema.subscriptions.orderId, signUp.id));
  const cookie = await sessionCookieFor(subscription.userId!);
  const post = (fields: Record<string, string>) =>
    settle(() => testBilling.action({ request: formRequest("/billing/test", fields, { Cookie: cookie }), params: {}, context: freshContext() }));
  const review = await post({ intent: "switch", subscriptionId: subscription.id, planKey: "pro" });
  const { prorationDate } = review.data.confirm.preview;
  expect((await post({ intent: "switch", subscriptionId: subscription.id, planKey: "pro", prorationDate: String(prorationDate), confirm: "yes" })).status).toBe(
    302,
  );
  const [payment] = await db.select().from(schema.orders).where(eq(schema.orders.subscriptionId, subscription.id));
  return { email, userId: subscription.userId!, signUp, payment, subscription, post };
}

describe("a plan switch's payment has one name, for the new plan", () => {
  test("its order is for the new plan, and its receipt (listed and printed) names the switch", async () => {
    const { userId, payment } = await subscribeAndSwitch();
    expect(payment).toMatchObject({ kind: "renewal", planId: "pro" });

    const receipts = await listReceiptsForUser(userId);
    expect(receipts.map((r) => r.description).sort()).toEqual(["STARTER PACKAGE (monthly)", SWITCH_NAME]);
    const customer = { id: userId, role: "user" as const };
    const printed = await getReceiptFor(customer, "invoice", receipts.find((r) => r.kind === "invoice")!.id);
    expect(printed.lines).toEqual([{ description: SWITCH_NAME, amountCents: payment.totalCents, quantity: 1 }]);
    const asOrder = await getReceiptFor(customer, "order", payment.id);
    expect(asOrder.lines.map((line) => line.description)).toEqual([SWITCH_NAME]);
  });

  test("the staff orders list, the order's page and the CSV say the same", async () => {
    const { email, payment, signUp } = await subscribeAndSwitch();
    const listed = await listOrders({ search: email });
    // The switch's order is dated by its invoice (whole seconds): either may list first.
    expect(listed.orders.map((o) => [o.id, o.lines.map((line) => line.service.name), o.charge])).toEqual(
      expect.arrayContaining([
        [payment.id, [SWITCH_NAME], "switch"],
        [signUp.id, ["STARTER PACKAGE (monthly)"], "sign-up"],
      ]),
    );
    expect(listed.orders).toHaveLength(2);
    const detail = await getOrderDetail(payment.id);
    expect(detail?.order).toMatchObject({ charge: "switch", lines: [{ service: { name: SWITCH_NAME } }] });

    const csv = await new Response(ordersCsvStream({ search: email })).text();
    const rows = csv.trim().split("\r\n");
    expect(rows).toHaveLength(3);
    // The name holds a comma: its cell is quoted.
    expect(rows.find((row) => row.includes(payment.id))).toContain(`"${SWITCH_NAME}"`);
    expect(rows.find((row) => row.includes(signUp.id))).toContain("STARTER PACKAGE (monthly)");
    expect(csv).not.toMatch(/renewal\)|plan \(monthly\)/);
  });

  test("the account's data export names it as the receipt does", async () => {
    const { userId, payment } = await subscribeAndSwitch();
    const entries = readZip(await buffer(await accountExport(userId)));
    const json = JSON.parse(entries.get("account.json")!.toString("utf8")) as {
      orders: { _id: string; lines: { service: { name: string } }[] }[];
      receipts: { description: string }[];
    };
    expect(json.orders.find((o) => o._id === payment.id)?.lines.map((line) => line.service.name)).toEqual([SWITCH_NAME]);
    expect(json.receipts.map((r) => r.description)).toContain(SWITCH_NAME);
    // The screens' label is not part of the export's (the API's) order shape.
    expect(json.orders[0]).not.toHaveProperty("charge");
  });

  test("a later month of the new plan is still its renewal", async () => {
    const { userId, subscription, post } = await subscribeAndSwitch();
    expect((await post({ intent: "renew", subscriptionId: subscription.id })).status).toBe(302);
    const descriptions = (await listReceiptsForUser(userId)).map((r) => r.description);
    expect(descriptions).toContain("PRO PACKAGE (monthly renewal)");
    expect(descriptions).toContain(SWITCH_NAME);
  });
});
