import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";

import { createPlanOrder, createServicesOrder, fulfilCheckoutSession, testCheckoutSession } from "~/models/orders.server";
import { refundOrder } from "~/models/refunds.server";
import { getTeamCounts } from "~/models/stats.server";
import * as testBilling from "~/routes/billing.[test]._index";
import * as ordersList from "~/routes/dashboard+/_staff+/orders+/_index";
import * as orderPage from "~/routes/dashboard+/_staff+/orders+/$orderId";
import * as ordersCsv from "~/routes/dashboard+/_staff+/orders+/export[.]csv";
import * as subscriptionsList from "~/routes/dashboard+/_staff+/subscriptions+/_index";
import * as subscriptionPage from "~/routes/dashboard+/_staff+/subscriptions+/$subscriptionId";
import { db, schema } from "~/utils/db.server";

import { settle } from "../support/call-route";
import { freshContext, seedServices, uniqueEmail } from "../support/payments-helpers";
import { formRequest } from "../support/requests";
import { createTestUser, sessionCookieFor } from "./authorization/helpers";

/*
 * Subscriptions are first-class for staff (decision 175): renewals are orders, so the Orders list
 * and the CSV show them and the CSV sums to the overview's revenue to the cent; a plan has its own
 * page with its payments; staff cancel it (after a confirmation step, decision 176); a sign-up
 * refunded in full ends the plan. Test mode (no Stripe key): the test billing page renews.
 */

let staffCookie = "";
let staffId = "";

beforeAll(async () => {
  await seedServices();
  const staff = await createTestUser({ role: "team", name: "Sam Staff" });
  staffId = staff.id;
  staffCookie = await sessionCookieFor(staff.id);
});

async function paidOrder(start: Promise<{ orderId: string }>) {
  const { orderId } = await start;
  const [order] = await db.select().from(schema.orders).where(eq(schema.orders.id, orderId));
  expect(await fulfilCheckoutSession(testCheckoutSession(order, true))).toBe("fulfilled");
  return (await db.select().from(schema.orders).where(eq(schema.orders.id, orderId)))[0];
}

/** A plan bought on the test checkout, and its buyer's cookie. */
async function subscribe(planId: string) {
  const email = uniqueEmail("plan");
  const order = await paidOrder(createPlanOrder({ name: "Pat Plan", email }, planId));
  const [subscription] = await db.select().from(schema.subscriptions).where(eq(schema.subscriptions.orderId, order.id));
  return { order, subscription, cookie: await sessionCookieFor(subscription.userId!) };
}

/** The period ends on the test billing page: the plan renews and is paid. */
async function renew(cookie: string, subscriptionId: string) {
  const response = (await testBilling.action({
    request: formRequest("/billing/test", { intent: "renew", subscriptionId }, { Cookie: cookie }),
    params: {},
    context: freshContext(),
  })) as Response;
  expect(response.status).toBe(302);
}

const get = (path: string) => new Request(`http://localhost${path}`, { headers: { Cookie: staffCookie } });
const post = (path: string, fields: Record<string, string>) => formRequest(path, fields, { Cookie: staffCookie });

/** What a loader or action answered, as status and data. */
async function answer(run: () => unknown) {
  const { status, data } = await settle(run);
  return { status, body: data };
}

/** The CSV's rows as header → cell maps (text cells are quoted; amounts are bare). */
function parseCsv(text: string) {
  const lines = text.trim().split("\r\n");
  const cells = (line: string) => [...line.matchAll(/("(?:[^"]|"")*"|[^,]*)(?:,|$)/g)].map((m) => m[1].replace(/^"|"$/g, "").replace(/""/g, '"')).slice(0, -1);
  const header = cells(lines[0]);
  return lines.slice(1).map((line) => Object.fromEntries(cells(line).map((value, i) => [header[i], value])));
}

describe("renewals in the orders list and the CSV", () => {
  test("two renewals are orders; the CSV's net column sums to the overview's Total Revenue to the cent", async () => {
    const services = await seedServices();
    await paidOrder(createServicesOrder({ name: "Sid Services", email: uniqueEmail("svc") }, [services[0].id, services[1].id]));
    // An order never paid brings nothing, in the CSV as in revenue.
    await createServicesOrder({ name: "Una Unpaid", email: uniqueEmail("unpaid") }, [services[2].id]);
    const vip = await subscribe("vip");
    await renew(vip.cookie, vip.subscription.id);
    await renew(vip.cookie, vip.subscription.id);
    const renewals = await db.select().from(schema.orders).where(eq(schema.orders.subscriptionId, vip.subscription.id));
    expect(renewals.map((o) => [o.kind, o.status, o.totalCents])).toEqual([
      ["renewal", "paid", 58900],
      ["renewal", "paid", 58900],
    ]);
    // Part of one renewal goes back: revenue and the CSV both lose exactly that.
    await refundOrder(renewals[0].id, { amountCents: 1234, staffId, reason: "Goodwill for a late report" });

    const list = await answer(() => ordersList.loader({ request: get("/dashboard/orders"), params: {}, context: freshContext() }));
    const listed = list.body.orders as { id: string; kind: string; renewal: boolean; subscriptionId: string | null; name: string }[];
    expect(listed.filter((o) => o.renewal).map((o) => [o.kind, o.subscriptionId, o.name])).toEqual([
      ["plan", vip.subscription.id, "Pat Plan"],
      ["plan", vip.subscription.id, "Pat Plan"],
    ]);

    const csv = (await ordersCsv.loader({ request: get("/dashboard/orders/export.csv"), params: {}, context: freshContext() })) as Response;
    const rows = parseCsv(await csv.text());
    expect(rows.filter((row) => row.kind === "renewal")).toHaveLength(2);
    const netCents = rows.reduce((sum, row) => sum + Math.round(Number(row.net) * 100), 0);
    const overviewCents = (await getTeamCounts()).totalRevenueCents;
    expect(netCents).toBe(overviewCents);
    expect(overviewCents).toBe(services[0].priceCents + services[1].priceCents + 3 * 58900 - 1234);
  });
});

describe("a plan's page for staff", () => {
  test("the list finds the plan by its customer; its page lists the sign-up and the renewals", async () => {
    const pro = await subscribe("pro");
    await renew(pro.cookie, pro.subscription.id);
    const list = await answer(() =>
      subscriptionsList.loader({ request: get("/dashboard/subscriptions?search=Pat+Plan&status=active"), params: {}, context: freshContext() }),
    );
    const found = (list.body.subscriptions as { subscription: { id: string }; paidCents: number; payments: number }[]).find(
      (row) => row.subscription.id === pro.subscription.id,
    );
    expect(found).toMatchObject({ paidCents: 31800, payments: 2 });
    const page = await answer(() =>
      subscriptionPage.loader({
        request: get(`/dashboard/subscriptions/${pro.subscription.id}`),
        params: { subscriptionId: pro.subscription.id },
        context: freshContext(),
      }),
    );
    // Screens take cents (decision 162): $159.00 each.
    expect((page.body.payments as { renewal: boolean; amountCents: number }[]).map((p) => [p.renewal, p.amountCents])).toEqual([
      [false, 15900],
      [true, 15900],
    ]);
    const unknown = await answer(() =>
      subscriptionPage.loader({ request: get("/dashboard/subscriptions/nope"), params: { subscriptionId: "nope" }, context: freshContext() }),
    );
    expect(unknown.status).toBe(404);
  });

  test("cancelling asks first; confirmed, it cancels at period end, resumes, or ends the plan now", async () => {
    const { subscription } = await subscribe("starter");
    const path = `/dashboard/subscriptions/${subscription.id}`;
    const act = (fields: Record<string, string>) =>
      answer(() => subscriptionPage.action({ request: post(path, fields), params: { subscriptionId: subscription.id }, context: freshContext() }));
    const current = async () => (await db.select().from(schema.subscriptions).where(eq(schema.subscriptions.id, subscription.id)))[0];

    expect(await act({ intent: "cancel_now" })).toEqual({ status: 200, body: { confirm: "cancel_now" } });
    expect(await current()).toMatchObject({ status: "active", cancelAtPeriodEnd: false });
    expect((await act({ intent: "cancel_at_period_end", confirm: "yes" })).status).toBe(302);
    expect(await current()).toMatchObject({ status: "active", cancelAtPeriodEnd: true });
    expect(await act({ intent: "cancel_at_period_end", confirm: "yes" })).toMatchObject({ status: 409 });
    expect((await act({ intent: "resume", confirm: "yes" })).status).toBe(302);
    expect(await current()).toMatchObject({ status: "active", cancelAtPeriodEnd: false });
    expect((await act({ intent: "cancel_now", confirm: "yes" })).status).toBe(302);
    expect(await current()).toMatchObject({ status: "canceled" });
    expect(await act({ intent: "explode", confirm: "yes" })).toMatchObject({
      status: 400,
      body: { result: { error: { intent: ["Please choose what to change."] } } },
    });
  });
});

describe("refunds from the order page", () => {
  const refundStep = (orderId: string, fields: Record<string, string>) =>
    answer(() => orderPage.action({ request: post(`/dashboard/orders/${orderId}`, fields), params: { orderId }, context: freshContext() }));

  test("a refund asks for a reason, then shows what it refunds; only the confirmation refunds, and the reason is kept", async () => {
    const { order } = await subscribe("pro");
    const refundKey = crypto.randomUUID();
    expect(await refundStep(order.id, { amount: "", reason: "  ", refundKey })).toMatchObject({
      status: 400,
      body: { result: { error: { reason: ["Please give a reason for the refund."] } } },
    });
    const review = await refundStep(order.id, { amount: "", reason: "Signed up twice by mistake", refundKey });
    expect(review).toMatchObject({
      status: 200,
      body: { confirm: { amountCents: 15900, full: true, endsPlan: true, reason: "Signed up twice by mistake", amountInput: "" } },
    });
    expect((await db.select().from(schema.orders).where(eq(schema.orders.id, order.id)))[0].refundedCents).toBe(0);

    expect((await refundStep(order.id, { amount: "", reason: "Signed up twice by mistake", refundKey, confirm: "yes" })).status).toBe(302);
    const detail = await answer(() =>
      orderPage.loader({ request: get(`/dashboard/orders/${order.id}`), params: { orderId: order.id }, context: freshContext() }),
    );
    expect(detail.body).toMatchObject({
      order: { status: "refunded", refundedCents: 15900 },
      refunds: [{ amountCents: 15900, reason: "Signed up twice by mistake" }],
    });
    // The order's history: created and paid by the buyer, the refund and its status change by the staff member, the e-mails.
    const timeline = detail.body.timeline as { kind: string; title: string; detail: string | null; actor: string }[];
    expect(timeline.map((entry) => [entry.kind, entry.title, entry.actor]).filter(([kind]) => kind !== "email")).toEqual([
      ["created", "Order placed", `Pat Plan (${order.email})`],
      ["paid", "Paid $159.00", `Pat Plan (${order.email})`],
      ["refund", "Refunded: $159.00", "Sam Staff"],
      ["status", "Status: Refunded", "Sam Staff"],
    ]);
    expect(timeline.find((entry) => entry.kind === "refund")?.detail).toBe("Reason: Signed up twice by mistake");
    expect(timeline.filter((entry) => entry.kind === "email").map((entry) => entry.title)).toContain("E-mail sent: Your BrandLift order has been refunded");
  });

  test("a sign-up refunded in full ends its plan; a partial refund leaves it running", async () => {
    const partial = await subscribe("vip");
    await refundOrder(partial.order.id, { amountCents: 10000, staffId, reason: "Ad credits unused" });
    expect((await db.select().from(schema.subscriptions).where(eq(schema.subscriptions.id, partial.subscription.id)))[0].status).toBe("active");
    await refundOrder(partial.order.id, { staffId, reason: "Cancelled in the first week" });
    expect((await db.select().from(schema.subscriptions).where(eq(schema.subscriptions.id, partial.subscription.id)))[0]).toMatchObject({
      status: "canceled",
      cancelAtPeriodEnd: false,
    });
  });
});
