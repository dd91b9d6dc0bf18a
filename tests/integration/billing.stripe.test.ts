import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { pointAppAtFakeStripe, startFakeStripe } from "../fakes/stripe";
import { decodeEmail, emailsTo, freshContext, seedServices, uniqueEmail } from "../support/payments-helpers";

/*
 * Plans with a Stripe key: the real `stripe` SDK talks to the local fake (STRIPE_API_URL). The
 * fake plays Stripe's side of the customer portal (subscription updates), renewals (invoice.paid),
 * failed payments and refunds; every change reaches us as a signed webhook.
 */
const fake = await startFakeStripe();
pointAppAtFakeStripe(fake.url);

const { db, schema } = await import("~/utils/db.server");
const { and, eq } = await import("drizzle-orm");
const webhookRoute = await import("~/routes/api+/stripe.webhook");
const mySubscriptions = await import("~/routes/api+/subscriptions+/my");
const myReceipts = await import("~/routes/api+/receipts.my");
const portalRoute = await import("~/routes/api+/billing.portal");
const billingPage = await import("~/routes/dashboard+/_customer+/billing");
const { createPlanOrder } = await import("~/models/orders.server");
const { getTeamCounts } = await import("~/models/stats.server");
const { getSubscriptionMetrics } = await import("~/models/subscriptions.server");
const { revenueByMonth } = await import("~/models/revenue.server");
const { deleteCustomerAccount } = await import("~/models/account-deletion.server");
const { hashPassword } = await import("~/utils/password.server");
const { bearerFor, sessionCookieFor } = await import("./authorization/helpers");
const { getToast } = await import("~/web/toast.server");

beforeAll(async () => {
  await seedServices();
});
afterAll(() => fake.close());

async function deliver(type: string, object: Record<string, unknown>, options?: Parameters<typeof fake.event>[2]) {
  const { body, signature, id } = fake.event(type, object, options);
  const request = new Request("http://localhost/api/stripe/webhook", {
    method: "POST",
    headers: { "Stripe-Signature": signature, "Content-Type": "application/json" },
    body,
  });
  const response = await webhookRoute.action({ request, params: {}, context: freshContext() });
  return { status: response.status, body: await response.json(), id };
}

/** A plan bought and paid on Stripe Checkout: the customer's account, a bearer token, the Stripe subscription id. */
async function subscribe(planId = "pro", email = uniqueEmail("subscriber")) {
  const started = await createPlanOrder({ name: "Sam Subscriber", email }, planId);
  const session = fake.complete(started.sessionId);
  expect((await deliver("checkout.session.completed", session)).status).toBe(200);
  const [user] = await db.select().from(schema.users).where(eq(schema.users.email, email));
  return {
    user,
    email,
    orderId: started.orderId,
    subscriptionId: session.subscription as string,
    customerId: session.customer as string,
    token: await bearerFor(user.id),
  };
}

const get = async (route: { loader: (args: never) => Promise<Response> }, path: string, token: string) => {
  const response = await route.loader({
    request: new Request(`http://localhost${path}`, { headers: { Authorization: `Bearer ${token}` } }),
    params: {},
    context: freshContext(),
  } as never);
  return { status: response.status, body: await response.json() };
};
const plansOf = async (token: string) => (await get(mySubscriptions, "/api/subscriptions/my", token)).body.data.subscriptions;
const revenueCents = async () => (await getTeamCounts()).totalRevenueCents;

describe("a plan bought through Stripe", () => {
  test("GET /api/subscriptions/my shows the plan, its price, status, renewal date and what it includes", async () => {
    const { token } = await subscribe("vip");
    const [plan] = await plansOf(token);
    expect(plan).toMatchObject({
      plan: { key: "vip", name: "VIP TREATMENT" },
      price: 589,
      currency: "usd",
      status: "active",
      cancelAtPeriodEnd: false,
      currentPeriodEnd: expect.any(String),
    });
    expect(plan.features).toContain("$100 ad credits every month (no rollover)");
  });

  test("Manage billing opens a Stripe customer portal session for the customer's Stripe customer", async () => {
    const { token, customerId, user } = await subscribe();
    const response = await portalRoute.action({
      request: new Request("http://localhost/api/billing/portal", { method: "POST", headers: { Authorization: `Bearer ${token}` } }),
      params: {},
      context: freshContext(),
    });
    const body = await response.json();
    expect(body).toEqual({ status: "success", data: { url: expect.stringMatching(/^https:\/\/billing\.stripe\.test\/p\/session\/bps_/) } });
    expect(fake.portalSessions.at(-1)).toMatchObject({ customer: customerId, return_url: "http://shop.example.test/dashboard/services" });
    // The dashboard's button (a form post) redirects the browser there.
    const page = (await billingPage
      .action({
        request: new Request("http://localhost/dashboard/billing", {
          method: "POST",
          headers: { Cookie: await sessionCookieFor(user.id), Origin: "http://localhost" },
        }),
        params: {},
        context: freshContext(),
      })
      .catch((thrown: unknown) => thrown)) as Response;
    expect(page.status).toBe(302);
    expect(page.headers.get("Location")).toMatch(/^https:\/\/billing\.stripe\.test\/p\/session\//);
  });

  test("portal changes arrive by webhook: cancel at period end, resume, switch plan; deletion ends it", async () => {
    const { token, subscriptionId } = await subscribe("starter");
    await deliver("customer.subscription.updated", fake.updateSubscription(subscriptionId, { cancelAtPeriodEnd: true }));
    expect((await plansOf(token))[0]).toMatchObject({ status: "active", cancelAtPeriodEnd: true });
    await deliver("customer.subscription.updated", fake.updateSubscription(subscriptionId, { cancelAtPeriodEnd: false }));
    expect((await plansOf(token))[0]).toMatchObject({ status: "active", cancelAtPeriodEnd: false });

    const before = await getSubscriptionMetrics();
    await deliver("customer.subscription.updated", fake.updateSubscription(subscriptionId, { priceCents: 15900, planId: "pro" }));
    expect((await plansOf(token))[0]).toMatchObject({ plan: { key: "pro", name: "PRO PACKAGE" }, price: 159 });
    expect((await getSubscriptionMetrics()).mrrCents).toBe(before.mrrCents + 11000);

    await deliver("customer.subscription.deleted", fake.updateSubscription(subscriptionId, { status: "canceled" }));
    expect((await plansOf(token))[0]).toMatchObject({ status: "canceled" });
    expect((await getSubscriptionMetrics()).mrrCents).toBe(before.mrrCents - 4900);
  });

  test("a renewal (invoice.paid) is recorded once, counts in total revenue and the monthly revenue, and has a receipt", async () => {
    const { token, subscriptionId } = await subscribe("pro");
    const start = await revenueCents();
    const invoice = fake.invoice(subscriptionId, { billingReason: "subscription_cycle" });
    expect((await deliver("invoice.paid", invoice)).status).toBe(200);
    // Redelivered under the same event id, and as a second event about the same invoice: once.
    const again = await deliver("invoice.paid", invoice);
    await deliver("invoice.paid", invoice, { id: again.id });
    expect(await db.$count(schema.invoices, eq(schema.invoices.stripeInvoiceId, invoice.id))).toBe(1);
    expect(await revenueCents()).toBe(start + 15900);
    const month = new Date().toISOString().slice(0, 7);
    expect((await revenueByMonth(1)).find((m) => m.month === month)?.renewals).toBeGreaterThanOrEqual(1);
    expect((await plansOf(token))[0].currentPeriodEnd).toBe(
      new Date((invoice.lines as { data: { period: { end: number } }[] }).data[0].period.end * 1000).toISOString(),
    );

    const { body } = await get(myReceipts, "/api/receipts/my", token);
    expect(body.data.receipts.map((r: { kind: string }) => r.kind).sort()).toEqual(["invoice", "order"]);
    const renewal = body.data.receipts.find((r: { kind: string }) => r.kind === "invoice");
    expect(renewal).toMatchObject({ amount: 159, currency: "usd", refunded: 0, url: invoice.hosted_invoice_url });

    // The first invoice of a plan is the order's money: recorded for its receipt, not counted twice.
    const first = fake.invoice(subscriptionId, { billingReason: "subscription_create" });
    await deliver("invoice.paid", first);
    expect(await revenueCents()).toBe(start + 15900);
    const receipts = (await get(myReceipts, "/api/receipts/my", token)).body.data.receipts;
    expect(receipts.find((r: { kind: string }) => r.kind === "order").url).toBe(first.hosted_invoice_url);
  });

  test("a partial refund of a renewal reduces revenue by its amount; a full one by the rest", async () => {
    const { subscriptionId, token } = await subscribe("pro");
    const invoice = fake.invoice(subscriptionId);
    await deliver("invoice.paid", invoice);
    const before = await revenueCents();
    expect((await deliver("charge.refunded", fake.refundedCharge(invoice, 5000))).status).toBe(200);
    expect(await revenueCents()).toBe(before - 5000);
    await deliver("charge.refunded", fake.refundedCharge(invoice, 15900));
    expect(await revenueCents()).toBe(before - 15900);
    const receipt = (await get(myReceipts, "/api/receipts/my", token)).body.data.receipts.find((r: { kind: string }) => r.kind === "invoice");
    expect(receipt.refunded).toBe(159);
  });

  test("a failed renewal makes the plan past due and e-mails the customer a link to fix it", async () => {
    const { token, subscriptionId, email } = await subscribe("vip");
    expect((await deliver("invoice.payment_failed", fake.invoice(subscriptionId, { paid: false }))).status).toBe(200);
    expect((await plansOf(token))[0].status).toBe("past_due");
    const mail = decodeEmail(emailsTo(email).find((m) => m.includes("Payment failed")) ?? "");
    expect(mail).toContain("http://shop.example.test/dashboard/billing");
    // Paying later settles it.
    await deliver("invoice.paid", fake.invoice(subscriptionId));
    expect((await plansOf(token))[0].status).toBe("active");
  });

  test("past due is no dead end: the portal opens on the payment method; retry pays the open invoice, or says it failed again", async () => {
    const { user, subscriptionId } = await subscribe("vip");
    const failed = fake.invoice(subscriptionId, { paid: false });
    await deliver("invoice.payment_failed", failed);
    const [row] = await db.select().from(schema.subscriptions).where(eq(schema.subscriptions.stripeSubscriptionId, subscriptionId));
    expect(row.status).toBe("past_due");
    const cookie = await sessionCookieFor(user.id);
    const step = async (fields: Record<string, string>) => {
      const response = (await billingPage.action({
        request: new Request("http://localhost/dashboard/billing", { method: "POST", headers: { Cookie: cookie }, body: new URLSearchParams(fields) }),
        params: {},
        context: freshContext(),
      })) as Response;
      const toastCookie = response.headers
        .getSetCookie()
        .map((c) => c.split(";")[0])
        .join("; ");
      const toast = (await getToast(new Request("http://localhost/", { headers: { Cookie: toastCookie } }))).toast;
      return { status: response.status, location: response.headers.get("Location"), toast: toast && { type: toast.type, message: toast.message } };
    };

    const update = await step({ intent: "payment-method", subscriptionId: row.id });
    expect(update.location).toMatch(/^https:\/\/billing\.stripe\.test\/p\/session\//);
    expect(fake.requests.at(-1)?.params).toMatchObject({ customer: row.stripeCustomerId, flow_data: { type: "payment_method_update" } });

    fake.declinePaymentsNext();
    expect(await step({ intent: "retry", subscriptionId: row.id })).toEqual({
      status: 302,
      location: `/dashboard/plans/${row.id}`,
      toast: { type: "error", message: "The payment failed again. Please update your payment method, then retry." },
    });
    expect((await db.select().from(schema.subscriptions).where(eq(schema.subscriptions.id, row.id)))[0].status).toBe("past_due");

    const before = await revenueCents();
    expect(await step({ intent: "retry", subscriptionId: row.id })).toEqual({
      status: 302,
      location: `/dashboard/plans/${row.id}`,
      toast: { type: "success", message: "Payment received: your plan is active again." },
    });
    expect(fake.requests.filter((r) => r.path === `/v1/invoices/${failed.id}/pay`)).toHaveLength(2);
    expect((await db.select().from(schema.subscriptions).where(eq(schema.subscriptions.id, row.id)))[0].status).toBe("active");
    expect(await revenueCents()).toBe(before + 58900);
    // Stripe's own invoice.paid for the same invoice counts nothing twice.
    await deliver("invoice.paid", fake.openInvoices.get(failed.id as string)!);
    expect(await revenueCents()).toBe(before + 58900);
  });

  test("webhooks about a subscription we never sold change nothing", async () => {
    const before = { invoices: await db.$count(schema.invoices), subscriptions: await db.select().from(schema.subscriptions), revenue: await revenueCents() };
    const stranger = {
      id: "sub_never_sold",
      object: "subscription",
      status: "active",
      cancel_at_period_end: true,
      customer: "cus_x",
      metadata: {},
      items: { data: [{ current_period_end: 2_000_000_000, price: { unit_amount: 100 } }] },
    };
    expect(await deliver("customer.subscription.updated", stranger)).toMatchObject({ status: 200, body: { received: true } });
    expect(await deliver("customer.subscription.deleted", stranger)).toMatchObject({ status: 200 });
    const invoice = {
      id: "in_never_sold",
      object: "invoice",
      billing_reason: "subscription_cycle",
      amount_paid: 100,
      currency: "usd",
      parent: { subscription_details: { subscription: "sub_never_sold", metadata: {} } },
    };
    expect((await deliver("invoice.paid", invoice)).status).toBe(200);
    expect((await deliver("invoice.payment_failed", invoice)).status).toBe(200);
    expect(await db.$count(schema.invoices)).toBe(before.invoices);
    expect(await db.select().from(schema.subscriptions)).toEqual(before.subscriptions);
    expect(await revenueCents()).toBe(before.revenue);
  });

  test("a renewal that arrives before the checkout event is kept, and belongs to the buyer once checkout completes", async () => {
    const email = uniqueEmail("early");
    const started = await createPlanOrder({ name: "Early Bird", email }, "starter");
    const session = fake.complete(started.sessionId);
    const renewal = fake.invoice(session.subscription as string, { billingReason: "subscription_cycle" });
    const revenue = await revenueCents();
    expect((await deliver("invoice.paid", renewal)).status).toBe(200);
    expect(await db.$count(schema.invoices, eq(schema.invoices.stripeInvoiceId, renewal.id))).toBe(1);
    expect(await revenueCents()).toBe(revenue + 4900);
    await deliver("checkout.session.completed", session);
    const [user] = await db.select().from(schema.users).where(eq(schema.users.email, email));
    const token = await bearerFor(user.id);
    expect((await plansOf(token))[0]).toMatchObject({ plan: { key: "starter" }, status: "active" });
    const receipts = (await get(myReceipts, "/api/receipts/my", token)).body.data.receipts;
    expect(receipts.map((r: { kind: string }) => r.kind).sort()).toEqual(["invoice", "order"]);
    expect(await revenueCents()).toBe(revenue + 4900 + 4900);
  });
});

describe("an a-la-carte order's receipt", () => {
  test("its Stripe invoice (invoice_creation, our order id in the metadata) becomes the receipt URL", async () => {
    const [service] = await seedServices();
    const { createServicesOrder } = await import("~/models/orders.server");
    const email = uniqueEmail("alacarte");
    const started = await createServicesOrder({ name: "Ala Carte", email }, [service.id]);
    const request = fake.requests.findLast((r) => r.path === "/v1/checkout/sessions")!;
    expect(request.params).toMatchObject({ invoice_creation: { enabled: "true", invoice_data: { metadata: { orderId: started.orderId } } } });
    await deliver("checkout.session.completed", fake.complete(started.sessionId));
    const invoice = {
      id: `in_order_${started.orderId.slice(0, 8)}`,
      object: "invoice",
      billing_reason: "manual",
      amount_paid: service.priceCents,
      currency: "usd",
      metadata: { orderId: started.orderId },
      hosted_invoice_url: "https://invoice.stripe.test/i/order",
      status_transitions: { paid_at: Math.floor(Date.now() / 1000) },
    };
    const revenue = await revenueCents();
    await deliver("invoice.paid", invoice);
    expect(await revenueCents()).toBe(revenue);
    const [user] = await db.select().from(schema.users).where(eq(schema.users.email, email));
    const receipts = (await get(myReceipts, "/api/receipts/my", await bearerFor(user.id))).body.data.receipts;
    expect(receipts).toEqual([expect.objectContaining({ kind: "order", amount: service.priceCents / 100, url: "https://invoice.stripe.test/i/order" })]);
  });
});

const { changeSubscriptionByStaff } = await import("~/models/subscriptions-staff.server");
const { previewPlanSwitch, switchPlan } = await import("~/models/plan-switch.server");
const { refundOrder } = await import("~/models/refunds.server");
const { createTestUser } = await import("./authorization/helpers");
const { listReceiptsForUser } = await import("~/models/receipts.server");

describe("staff and Stripe (decisions 175, 176)", () => {
  const rowOf = async (stripeSubscriptionId: string) =>
    (await db.select().from(schema.subscriptions).where(eq(schema.subscriptions.stripeSubscriptionId, stripeSubscriptionId)))[0];

  test("a switch is priced by Stripe's invoice preview and made at the same proration instant", async () => {
    const { subscriptionId } = await subscribe("pro");
    const row = await rowOf(subscriptionId);
    const preview = await previewPlanSwitch(row, "vip");
    const asked = fake.requests.filter((r) => r.path === "/v1/invoices/create_preview").at(-1)!;
    expect(asked.params).toMatchObject({
      subscription: subscriptionId,
      subscription_details: {
        proration_behavior: "always_invoice",
        proration_date: String(preview.prorationDate),
        items: [{ price_data: { unit_amount: "58900" } }],
      },
    });
    // A period just begun: close to the whole difference, as Stripe priced it.
    expect(preview.dueNowCents).toBe(preview.chargeCents - preview.creditCents);
    expect(preview.dueNowCents).toBeGreaterThan(42_000);

    const switched = await switchPlan(row, "vip", preview.prorationDate);
    expect(switched.chargedCents).toBe(preview.dueNowCents);
    const update = fake.requests.filter((r) => r.path === `/v1/subscriptions/${subscriptionId}` && r.method === "POST").at(-1)!;
    expect(update.params).toMatchObject({ proration_behavior: "always_invoice", proration_date: String(preview.prorationDate), metadata: { planId: "vip" } });
    expect(await rowOf(subscriptionId)).toMatchObject({ planId: "vip", priceCents: 58900 });

    // Its invoice names the new plan in the subscription's metadata: the payment is the switch to VIP.
    const invoice = fake.invoice(subscriptionId, { billingReason: "subscription_update", amount: preview.dueNowCents });
    expect((await deliver("invoice.paid", invoice)).status).toBe(200);
    const [payment] = await db
      .select()
      .from(schema.orders)
      .where(and(eq(schema.orders.subscriptionId, row.id), eq(schema.orders.kind, "renewal")));
    expect(payment).toMatchObject({ planId: "vip", totalCents: preview.dueNowCents });
    const receipts = await listReceiptsForUser(row.userId!);
    expect(receipts.map((r) => r.description)).toContain("Switch to VIP TREATMENT, prorated");
  });

  test("staff cancel at period end, resume and end a plan through Stripe's subscriptions API", async () => {
    const staff = await createTestUser({ role: "team" });
    const { subscriptionId } = await subscribe("starter");
    const row = await rowOf(subscriptionId);
    await changeSubscriptionByStaff(staff, row.id, "cancel_at_period_end");
    expect(fake.subscriptions.get(subscriptionId)).toMatchObject({ cancel_at_period_end: true });
    expect(await rowOf(subscriptionId)).toMatchObject({ status: "active", cancelAtPeriodEnd: true });
    await changeSubscriptionByStaff(staff, row.id, "resume");
    expect(await rowOf(subscriptionId)).toMatchObject({ cancelAtPeriodEnd: false });
    await changeSubscriptionByStaff(staff, row.id, "cancel_now");
    expect(fake.subscriptions.get(subscriptionId)).toMatchObject({ status: "canceled" });
    expect(await rowOf(subscriptionId)).toMatchObject({ status: "canceled" });
  });

  test("a customer deleting their account with a running plan ends it through Stripe now, prorated on a final invoice", async () => {
    const { subscriptionId } = await subscribe("pro");
    const row = await rowOf(subscriptionId);
    await db
      .update(schema.users)
      .set({ passwordHash: await hashPassword("deleting-now-1") })
      .where(eq(schema.users.id, row.userId!));
    await deleteCustomerAccount(row.userId!, "deleting-now-1", "10.9.9.9", { endPlans: true });
    const cancel = fake.requests.filter((r) => r.method === "DELETE" && r.path === `/v1/subscriptions/${subscriptionId}`).at(-1);
    expect(cancel?.params).toMatchObject({ prorate: "true", invoice_now: "true" });
    expect(await rowOf(subscriptionId)).toMatchObject({ status: "canceled" });
  });

  test("a sign-up refunded in full cancels its Stripe subscription, so nothing renews", async () => {
    const staff = await createTestUser({ role: "team" });
    const { subscriptionId, orderId } = await subscribe("pro");
    const first = fake.invoice(subscriptionId, { billingReason: "subscription_create" });
    await deliver("invoice.paid", first);
    await refundOrder(orderId, { staffId: staff.id, reason: "Bought by mistake" });
    expect(fake.requests.some((r) => r.method === "DELETE" && r.path === `/v1/subscriptions/${subscriptionId}`)).toBe(true);
    expect(await rowOf(subscriptionId)).toMatchObject({ status: "canceled" });
  });
});
