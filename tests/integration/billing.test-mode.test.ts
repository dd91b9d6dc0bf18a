import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";

import { createPlanOrder, fulfilCheckoutSession, testCheckoutSession } from "~/models/orders.server";
import { getTeamCounts } from "~/models/stats.server";
import * as myReceipts from "~/routes/api+/receipts.my";
import * as planReportsApi from "~/routes/api+/subscriptions+/$id.reports";
import * as mySubscriptions from "~/routes/api+/subscriptions+/my";
import * as testBilling from "~/routes/billing.[test]._index";
import * as dashboardBilling from "~/routes/dashboard+/_customer+/billing";
import * as planPage from "~/routes/dashboard+/_customer+/plans.$subscriptionId._index";
import * as receiptPage from "~/routes/receipts.$kind.$id";
import { db, schema } from "~/utils/db.server";
import { getToast } from "~/web/toast.server";

import { settle } from "../support/call-route";
import { decodeEmail, emailsTo, freshContext, seedServices, uniqueEmail } from "../support/payments-helpers";
import { bearerFor, createTestUser, sessionCookieFor } from "./authorization/helpers";

/*
 * Plans on the embedded default (no Stripe key): the test checkout, then the test billing page,
 * whose buttons hand Stripe-shaped objects to the webhook's own dispatcher.
 */

beforeAll(async () => {
  await seedServices();
});

/** A plan bought and paid on the test checkout. */
async function subscribe(planId = "pro") {
  const email = uniqueEmail("tm");
  const started = await createPlanOrder({ name: "Terry Test", email }, planId);
  const [order] = await db.select().from(schema.orders).where(eq(schema.orders.id, started.orderId));
  expect(await fulfilCheckoutSession(testCheckoutSession(order, true))).toBe("fulfilled");
  const [user] = await db.select().from(schema.users).where(eq(schema.users.email, email));
  const [subscription] = await db.select().from(schema.subscriptions).where(eq(schema.subscriptions.orderId, order.id));
  return { user, email, order, subscription, cookie: await sessionCookieFor(user.id) };
}

async function outcome(run: () => Promise<unknown>) {
  const { status, location, data } = await settle(run);
  return { status, location, body: data as unknown };
}

const change = (cookie: string, fields: Record<string, string>) =>
  outcome(() =>
    testBilling.action({
      request: new Request("http://localhost/billing/test", { method: "POST", headers: { Cookie: cookie }, body: new URLSearchParams(fields) }),
      params: {},
      context: freshContext(),
    }),
  );
const cookiesFrom = (headers: Headers) =>
  headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
const toastOfHeaders = async (headers: Headers) => (await getToast(new Request("http://localhost/", { headers: { Cookie: cookiesFrom(headers) } }))).toast;
/** A test billing page post that redirects, with the toast it flashes. */
async function outcomeWithToast(cookie: string, fields: Record<string, string>) {
  const response = (await testBilling.action({
    request: new Request("http://localhost/billing/test", { method: "POST", headers: { Cookie: cookie }, body: new URLSearchParams(fields) }),
    params: {},
    context: freshContext(),
  })) as Response;
  return { status: response.status, toast: await toastOfHeaders(response.headers) };
}
/** A past-due step posted from the plan's card to /dashboard/billing. */
async function billingStep(cookie: string, fields: Record<string, string>) {
  const response = (await dashboardBilling.action({
    request: new Request("http://localhost/dashboard/billing", { method: "POST", headers: { Cookie: cookie }, body: new URLSearchParams(fields) }),
    params: {},
    context: freshContext(),
  })) as Response;
  return { status: response.status, location: response.headers.get("Location"), headers: response.headers };
}
const current = async (id: string) => (await db.select().from(schema.subscriptions).where(eq(schema.subscriptions.id, id)))[0];

describe("the test billing page", () => {
  test("a plan paid on the test checkout is active for a month with a subscription id of its own", async () => {
    const { subscription, user } = await subscribe("vip");
    expect(subscription).toMatchObject({ status: "active", userId: user.id, stripeSubscriptionId: `sub_test_${subscription.orderId}` });
    const days = (subscription.currentPeriodEnd!.getTime() - Date.now()) / 86400_000;
    expect(days).toBeGreaterThan(27);
    expect(days).toBeLessThan(32);
    const token = await bearerFor(user.id);
    const response = await mySubscriptions.loader({
      request: new Request("http://localhost/api/subscriptions/my", { headers: { Authorization: `Bearer ${token}` } }),
      params: {},
      context: freshContext(),
    });
    expect((await response.json()).data.subscriptions[0]).toMatchObject({ plan: { key: "vip" }, price: 589, status: "active" });
  });

  test("Manage billing goes to the test billing page, which lists the plan", async () => {
    const { cookie } = await subscribe();
    const opened = await outcome(() =>
      dashboardBilling.loader({
        request: new Request("http://localhost/dashboard/billing", { headers: { Cookie: cookie } }),
        params: {},
        context: freshContext(),
      }),
    );
    expect(opened).toMatchObject({ status: 302, location: "/billing/test" });
    const page = await outcome(() =>
      testBilling.loader({ request: new Request("http://localhost/billing/test", { headers: { Cookie: cookie } }), params: {}, context: freshContext() }),
    );
    expect(page.body).toMatchObject({ subscriptions: [{ plan: { key: "pro" }, status: "active", cancelAtPeriodEnd: false }] });
  });

  test("cancel at period end, cancel twice (409), resume, resume twice (409), switch plan", async () => {
    const { subscription, cookie } = await subscribe("starter");
    // The first post only asks (decision 176): nothing changes until it is confirmed.
    expect(await change(cookie, { intent: "cancel", subscriptionId: subscription.id })).toMatchObject({ status: 200, body: { confirm: { intent: "cancel" } } });
    expect(await current(subscription.id)).toMatchObject({ cancelAtPeriodEnd: false });
    expect(await change(cookie, { intent: "cancel", subscriptionId: subscription.id, confirm: "yes" })).toMatchObject({
      status: 302,
      location: "/billing/test",
    });
    expect(await current(subscription.id)).toMatchObject({ status: "active", cancelAtPeriodEnd: true });
    expect(await change(cookie, { intent: "cancel", subscriptionId: subscription.id, confirm: "yes" })).toMatchObject({
      status: 409,
      body: { result: { error: { "": ["This plan is already set to cancel at the end of the period."] } } },
    });
    expect(await change(cookie, { intent: "resume", subscriptionId: subscription.id })).toMatchObject({ status: 302 });
    expect(await current(subscription.id)).toMatchObject({ cancelAtPeriodEnd: false });
    expect((await change(cookie, { intent: "resume", subscriptionId: subscription.id })).status).toBe(409);

    expect(await change(cookie, { intent: "switch", subscriptionId: subscription.id, planKey: "vip" })).toMatchObject({
      status: 200,
      body: { confirm: { intent: "switch" } },
    });
    expect(await current(subscription.id)).toMatchObject({ planId: "starter" });
    expect(await change(cookie, { intent: "switch", subscriptionId: subscription.id, planKey: "vip", confirm: "yes" })).toMatchObject({ status: 302 });
    expect(await current(subscription.id)).toMatchObject({ planId: "vip", priceCents: 58900 });
    expect((await change(cookie, { intent: "switch", subscriptionId: subscription.id, planKey: "vip" })).status).toBe(409);
    expect((await change(cookie, { intent: "switch", subscriptionId: subscription.id, planKey: "platinum" })).status).toBe(400);
  });

  test("a plan key carrying NUL or another control character answers 400 (not a 500)", async () => {
    const { subscription, cookie } = await subscribe("starter");
    for (const planKey of ["vi\u0000p", "vip\u001b"]) {
      expect(await change(cookie, { intent: "switch", subscriptionId: subscription.id, planKey })).toMatchObject({ status: 400 });
    }
    expect(await current(subscription.id)).toMatchObject({ planId: "starter" });
  });

  test("a cancelled plan cannot be resumed after its period ended", async () => {
    const { subscription, cookie } = await subscribe();
    await change(cookie, { intent: "cancel", subscriptionId: subscription.id, confirm: "yes" });
    await db
      .update(schema.subscriptions)
      .set({ currentPeriodEnd: new Date(Date.now() - 60_000) })
      .where(eq(schema.subscriptions.id, subscription.id));
    expect(await change(cookie, { intent: "resume", subscriptionId: subscription.id })).toMatchObject({
      status: 409,
      body: { result: { error: { "": ["This plan has ended and cannot be changed. Choose a plan on our home page to subscribe again."] } } },
    });
    expect(await current(subscription.id)).toMatchObject({ status: "canceled", cancelAtPeriodEnd: false });
  });

  test("a renewal is revenue with a printable receipt; a failed one is past due and e-mails a fix-it link", async () => {
    const { subscription, cookie, email, user } = await subscribe("pro");
    const before = (await getTeamCounts()).totalRevenueCents;
    expect(await change(cookie, { intent: "renew", subscriptionId: subscription.id })).toMatchObject({ status: 302 });
    expect((await getTeamCounts()).totalRevenueCents).toBe(before + 15900);
    const renewed = await current(subscription.id);
    expect(renewed.currentPeriodEnd!.getTime()).toBeGreaterThan(subscription.currentPeriodEnd!.getTime() + 27 * 86400_000);

    const token = await bearerFor(user.id);
    const receipts = (
      await (
        await myReceipts.loader({
          request: new Request("http://localhost/api/receipts/my", { headers: { Authorization: `Bearer ${token}` } }),
          params: {},
          context: freshContext(),
        })
      ).json()
    ).data.receipts;
    expect(receipts).toHaveLength(2);
    const invoice = receipts.find((r: { kind: string }) => r.kind === "invoice");
    expect(invoice.url).toMatch(new RegExp(`/receipts/invoice/${invoice._id}$`));
    const page = await outcome(() =>
      receiptPage.loader({
        request: new Request(`http://localhost/receipts/invoice/${invoice._id}`, { headers: { Cookie: cookie } }),
        params: { kind: "invoice", id: invoice._id },
        context: freshContext(),
      }),
    );
    expect(page.body).toMatchObject({ receipt: { totalCents: 15900, lines: [{ description: "PRO PACKAGE (monthly renewal)" }] } });
    const stranger = await sessionCookieFor((await createTestUser()).id);
    const refused = await outcome(() =>
      receiptPage.loader({
        request: new Request(`http://localhost/receipts/invoice/${invoice._id}`, { headers: { Cookie: stranger } }),
        params: { kind: "invoice", id: invoice._id },
        context: freshContext(),
      }),
    );
    expect(refused.status).toBe(404);

    expect(await change(cookie, { intent: "fail", subscriptionId: subscription.id })).toMatchObject({ status: 302 });
    expect((await current(subscription.id)).status).toBe("past_due");
    const mail = decodeEmail(emailsTo(email).find((m) => m.includes("Payment failed")) ?? "");
    expect(mail).toContain("/dashboard/billing");
  });

  test("past due is no dead end: the failure is an error toast; update the card (a declined one fails again) or retry, and the plan is active", async () => {
    const { subscription, cookie } = await subscribe("vip");
    const failed = await outcomeWithToast(cookie, { intent: "fail", subscriptionId: subscription.id });
    expect(failed.toast).toMatchObject({ type: "error", message: expect.stringContaining("past due") });

    // The plan's page offers both steps; "Update payment method" opens the test page's card step.
    const step = await billingStep(cookie, { intent: "payment-method", subscriptionId: subscription.id });
    expect(step).toMatchObject({ status: 302, location: `/billing/test#payment-${subscription.id}` });

    const declined = await change(cookie, { intent: "payment-method", subscriptionId: subscription.id, cardNumber: "4000 0000 0000 0002" });
    expect(declined).toMatchObject({ status: 402, body: { result: { error: { "": [expect.stringContaining("declined")] } } } });
    expect((await current(subscription.id)).status).toBe("past_due");

    const before = (await getTeamCounts()).totalRevenueCents;
    const paid = await outcomeWithToast(cookie, { intent: "payment-method", subscriptionId: subscription.id, cardNumber: "4242 4242 4242 4242" });
    expect(paid.toast).toMatchObject({ type: "success", message: "Payment received: your plan is active again." });
    expect((await current(subscription.id)).status).toBe("active");
    expect((await getTeamCounts()).totalRevenueCents).toBe(before + 58900);
    // Nothing left to retry.
    expect((await change(cookie, { intent: "retry", subscriptionId: subscription.id })).status).toBe(409);

    // Retry from the plan's page (/dashboard/billing) after another failure.
    await change(cookie, { intent: "fail", subscriptionId: subscription.id });
    const retried = await billingStep(cookie, { intent: "retry", subscriptionId: subscription.id });
    expect(retried).toMatchObject({ status: 302, location: `/dashboard/plans/${subscription.id}` });
    expect(await toastOfHeaders(retried.headers)).toMatchObject({ type: "success" });
    expect((await current(subscription.id)).status).toBe("active");
  });

  test("the order confirmation e-mail links to the receipt", async () => {
    const { email, order } = await subscribe();
    const confirmation = decodeEmail(emailsTo(email).find((m) => m.includes("Your BrandLift order is confirmed")) ?? "");
    expect(confirmation).toContain(`/receipts/order/${order.id}`);
  });

  test("another customer cannot change someone's plan", async () => {
    const { subscription } = await subscribe();
    const other = await createTestUser();
    expect((await change(await sessionCookieFor(other.id), { intent: "cancel", subscriptionId: subscription.id, confirm: "yes" })).status).toBe(404);
    expect((await current(subscription.id)).cancelAtPeriodEnd).toBe(false);
  });
});

describe("reports per plan period", () => {
  test("staff upload a report for the plan's current month; the subscriber sees it under the plan", async () => {
    const { subscription, cookie } = await subscribe("vip");
    const team = await createTestUser({ role: "team" });
    const form = new FormData();
    form.append("report", new Blob([new Uint8Array(Buffer.from("%PDF-1.4\n%plan\n%%EOF\n"))], { type: "application/pdf" }), "november.pdf");
    form.append("title", "November results");
    const response = await planReportsApi.action({
      request: new Request(`http://localhost/api/subscriptions/${subscription.id}/reports`, {
        method: "POST",
        headers: { Authorization: `Bearer ${await bearerFor(team.id)}` },
        body: form,
      }),
      params: { id: subscription.id },
      context: freshContext(),
    });
    expect(response.status).toBe(201);
    const body = await response.json();
    expect(body.data).toMatchObject({
      title: "November results",
      period: new Date().toISOString().slice(0, 7),
      subscriptionId: subscription.id,
      service: { name: "VIP TREATMENT" },
    });
    const page = await outcome(() =>
      planPage.loader({
        request: new Request(`http://localhost/dashboard/plans/${subscription.id}`, { headers: { Cookie: cookie } }),
        params: { subscriptionId: subscription.id },
        context: freshContext(),
      }),
    );
    expect(page.body).toMatchObject({ reports: [{ title: "November results" }] });
  });

  test("an ended plan takes no report (409)", async () => {
    const { subscription } = await subscribe();
    await db.update(schema.subscriptions).set({ status: "canceled" }).where(eq(schema.subscriptions.id, subscription.id));
    const team = await createTestUser({ role: "team" });
    const form = new FormData();
    form.append("report", new Blob([new Uint8Array(Buffer.from("%PDF-1.4\n%%EOF\n"))], { type: "application/pdf" }), "x.pdf");
    form.append("title", "Too late");
    const response = await planReportsApi.action({
      request: new Request(`http://localhost/api/subscriptions/${subscription.id}/reports`, {
        method: "POST",
        headers: { Authorization: `Bearer ${await bearerFor(team.id)}` },
        body: form,
      }),
      params: { id: subscription.id },
      context: freshContext(),
    });
    expect(response.status).toBe(409);
  });
});
