import { eq, inArray, sql } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";

import { cancelCheckoutSession, createServicesOrder, fulfilCheckoutSession, testCheckoutSession } from "~/models/orders.server";
import * as ordersRoute from "~/routes/api+/orders";
import * as refundRoute from "~/routes/api+/orders.$id.refund";
import * as revenueRoute from "~/routes/api+/stats.revenue";
import * as countRoute from "~/routes/api+/users+/count";
import * as exportRoute from "~/routes/dashboard+/_staff+/orders+/export[.]csv";
import { db, schema } from "~/utils/db.server";

import { call, readJson } from "../support/dashboard-helpers";
import { catalogue, createAccount, type Account } from "../support/factories";
import { readOutbox } from "../support/outbox";
import { uniqueEmail } from "../support/requests";

/*
 * Orders and refunds in test checkout (no Stripe key): the list with its filters, search and
 * pages, the streamed CSV, refunds full and partial (once per key, never past the total, two at
 * once), and revenue net of every refund, month by month and in the overview.
 */

let staff: Account;
let customer: Account;
let services: Awaited<ReturnType<typeof catalogue>>;

beforeAll(async () => {
  services = await catalogue();
  staff = await createAccount({ role: "team" });
  customer = await createAccount({ role: "user" });
});

async function placeOrder(name: string, email = uniqueEmail("buyer"), picked = [services[0], services[1]]) {
  const { orderId } = await createServicesOrder(
    { name, email },
    picked.map((s) => s.id),
  );
  const [order] = await db.select().from(schema.orders).where(eq(schema.orders.id, orderId));
  return order;
}

async function paidOrder(name: string, email?: string, picked?: typeof services) {
  const order = await placeOrder(name, email, picked);
  expect(await fulfilCheckoutSession(testCheckoutSession(order, true))).toBe("fulfilled");
  return (await db.select().from(schema.orders).where(eq(schema.orders.id, order.id)))[0];
}

type OrderJson = {
  _id: string;
  status: string;
  amount: number;
  refunded: number;
  email: string;
  name: string;
  customer: { _id: string } | null;
  lines: { service: { name: string }; price: number; quantity: number }[];
  kind: string;
};
type ListBody = { status: string; data: { orders: OrderJson[]; total: number } };

const list = async (query: string, auth: Account | null = staff) => call(ordersRoute.loader, `/api/orders${query}`, { auth });
const refund = (orderId: string, body: unknown, headers: Record<string, string> = {}, auth: Account | null = staff) =>
  call(refundRoute.action, `/api/orders/${orderId}/refund`, {
    auth,
    method: "POST",
    body: JSON.stringify(body),
    params: { id: orderId },
    headers: { "Content-Type": "application/json", ...headers },
  });
const revenueCents = async () => {
  const body = await readJson<{ data: { serviceCounts: { totalRevenue: number } } }>(await call(countRoute.loader, "/api/users/count", { auth: staff }));
  return Math.round(body.data.serviceCounts.totalRevenue * 100);
};
const thisMonth = async () => {
  const body = await readJson<{ data: { months: { month: string; revenue: number; orders: number }[] } }>(
    await call(revenueRoute.loader, "/api/stats/revenue", { auth: staff }),
  );
  return body.data.months.at(-1)!;
};

describe("GET /api/orders", () => {
  test("lists every order newest first, with lines, customer and amounts, filtered by status and searched", async () => {
    const tag = `Filter${Date.now().toString(36)}`;
    const pending = await placeOrder(`${tag} Pending`);
    const expired = await placeOrder(`${tag} Expired`);
    await cancelCheckoutSession(testCheckoutSession(expired));
    const paid = await paidOrder(`${tag} Paid`);

    const body = await readJson<ListBody>(await list(`?search=${tag}`));
    expect(body.status).toBe("success");
    expect(body.data.total).toBe(3);
    expect(body.data.orders.map((o) => [o._id, o.status])).toEqual([
      [paid.id, "paid"],
      [expired.id, "expired"],
      [pending.id, "pending"],
    ]);
    const [first] = body.data.orders;
    expect(first).toMatchObject({ amount: paid.totalCents / 100, refunded: 0, kind: "services", customer: { _id: paid.userId } });
    expect(first.lines.map((l) => l.service.name).sort()).toEqual([services[0].name, services[1].name].sort());
    expect(first.lines.find((l) => l.service.name === services[0].name)).toMatchObject({ price: services[0].priceCents / 100, quantity: 1 });

    const onlyExpired = await readJson<ListBody>(await list(`?search=${tag}&status=expired`));
    expect(onlyExpired.data.orders.map((o) => o._id)).toEqual([expired.id]);
    const byEmail = await readJson<ListBody>(await list(`?search=${encodeURIComponent(pending.email.toUpperCase())}`));
    expect(byEmail.data.orders.map((o) => o._id)).toEqual([pending.id]);
  });

  test("pages with page and limit; a date range in whole UTC days", async () => {
    const tag = `Page${Date.now().toString(36)}`;
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await placeOrder(`${tag} ${i}`));
    const page2 = await readJson<ListBody>(await list(`?search=${tag}&limit=2&page=2`));
    expect(page2.data.total).toBe(5);
    expect(page2.data.orders.map((o) => o._id)).toEqual([made[2].id, made[1].id]);
    const today = new Date().toISOString().slice(0, 10);
    const inRange = await readJson<ListBody>(await list(`?search=${tag}&from=${today}&to=${today}`));
    expect(inRange.data.total).toBe(5);
    const before = await readJson<ListBody>(await list(`?search=${tag}&to=2020-01-01`));
    expect(before.data.total).toBe(0);
    // Without search or dates the total comes from the per-status counts a trigger keeps: the same figures.
    const counted = async (status?: string) =>
      (
        await db
          .select({ n: sql<number>`count(*)::int` })
          .from(schema.orders)
          .where(status ? inArray(schema.orders.status, status === "expired" ? ["cancelled", "failed"] : [status as "pending"]) : undefined)
      )[0].n;
    expect((await readJson<ListBody>(await list(""))).data.total).toBe(await counted());
    expect((await readJson<ListBody>(await list("?status=pending"))).data.total).toBe(await counted("pending"));
    expect((await readJson<ListBody>(await list("?status=expired"))).data.total).toBe(await counted("expired"));
  });

  test("bad filters are a 400 with the field's message; customers 403; the signed-out 401", async () => {
    const bad = await list("?status=lost");
    expect(bad.status).toBe(400);
    expect((await readJson<{ message: string }>(bad)).message).toContain("Status must be one of");
    expect((await list("?from=yesterday")).status).toBe(400);
    expect((await list("?limit=1000")).status).toBe(400);
    expect((await list("", customer)).status).toBe(403);
    expect((await list("", null)).status).toBe(401);
  });
});

describe("POST /api/orders/:id/refund (test checkout)", () => {
  test("half, then the rest: status, refunded amount, revenue and the customer's e-mails", async () => {
    const email = uniqueEmail("refunded");
    const order = await paidOrder("Riley Refund", email);
    const before = await revenueCents();
    const monthBefore = await thisMonth();
    const half = Math.round(order.totalCents / 2) / 100;

    const first = await refund(order.id, { amount: half });
    expect(first.status).toBe(200);
    const body = await readJson<{ status: string; data: OrderJson }>(first);
    expect(body).toMatchObject({ status: "success", data: { _id: order.id, status: "partially_refunded", refunded: half } });
    expect(await revenueCents()).toBe(before - Math.round(half * 100));
    const monthAfter = await thisMonth();
    expect(Math.round(monthAfter.revenue * 100)).toBe(Math.round(monthBefore.revenue * 100) - Math.round(half * 100));
    expect(monthAfter.orders).toBe(monthBefore.orders);

    const rest = await readJson<{ data: OrderJson }>(await refund(order.id, {}));
    expect(rest.data).toMatchObject({ status: "refunded", refunded: order.totalCents / 100 });
    expect(await revenueCents()).toBe(before - order.totalCents);
    expect((await thisMonth()).orders).toBe(monthBefore.orders - 1);
    const purchases = await db.select().from(schema.purchases).where(eq(schema.purchases.orderId, order.id));
    expect(purchases.every((p) => p.status === "refunded")).toBe(true);

    const mails = readOutbox(email).map((m) => m.subject);
    expect(mails).toEqual(expect.arrayContaining([expect.stringContaining("A refund of"), "Your BrandLift order has been refunded"]));
    const again = await refund(order.id, {});
    expect(again.status).toBe(409);
    expect((await readJson<{ message: string }>(again)).message).toBe("This order has already been fully refunded.");
  });

  test("never more than what is left; amounts in dollars with at most two decimals", async () => {
    const order = await paidOrder("Max Amount");
    const tooMuch = await refund(order.id, { amount: order.totalCents / 100 + 1 });
    expect(tooMuch.status).toBe(400);
    expect((await readJson<{ message: string }>(tooMuch)).message).toMatch(/^The refund can be at most \$[\d,.]+, what is left of this order\.$/);
    expect((await refund(order.id, { amount: 0 })).status).toBe(400);
    expect((await refund(order.id, { amount: 1.234 })).status).toBe(400);
    expect((await refund(order.id, { amount: "ten" })).status).toBe(400);
    const pending = await placeOrder("Not Paid");
    const unpaid = await refund(pending.id, {});
    expect(unpaid.status).toBe(409);
    expect((await refund("00000000-0000-4000-8000-000000000000", {})).status).toBe(404);
    expect((await refund(order.id, {}, {}, customer)).status).toBe(403);
  });

  test("a retry with the same Idempotency-Key refunds once; two refunds at once never exceed the total", async () => {
    const order = await paidOrder("Retry Twice");
    const headers = { "Idempotency-Key": `retry-${order.id}` };
    const [a, b] = await Promise.all([refund(order.id, { amount: 1 }, headers), refund(order.id, { amount: 1 }, headers)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const rows = await db.select().from(schema.refunds).where(eq(schema.refunds.orderId, order.id));
    expect(rows.map((r) => r.amountCents)).toEqual([100]);

    const race = await paidOrder("Race Full");
    const results = await Promise.all([refund(race.id, {}), refund(race.id, {}), refund(race.id, {})]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    const [row] = await db.select().from(schema.orders).where(eq(schema.orders.id, race.id));
    expect(row).toMatchObject({ status: "refunded", refundedCents: race.totalCents });
  });
});

describe("GET /api/stats/revenue", () => {
  test("twelve UTC months oldest first, the current one last; months is bounded", async () => {
    const body = await readJson<{ status: string; data: { months: { month: string }[] } }>(
      await call(revenueRoute.loader, "/api/stats/revenue", { auth: staff }),
    );
    expect(body.data.months).toHaveLength(12);
    expect(body.data.months.at(-1)!.month).toBe(new Date().toISOString().slice(0, 7));
    expect(body.data.months.map((m) => m.month)).toEqual([...body.data.months.map((m) => m.month)].sort());
    const three = await readJson<{ data: { months: unknown[] } }>(await call(revenueRoute.loader, "/api/stats/revenue?months=3", { auth: staff }));
    expect(three.data.months).toHaveLength(3);
    expect((await call(revenueRoute.loader, "/api/stats/revenue?months=0", { auth: staff })).status).toBe(400);
    expect((await call(revenueRoute.loader, "/api/stats/revenue", { auth: customer })).status).toBe(403);
  });
});

describe("GET /dashboard/orders/export.csv", () => {
  test("streams every matching order as CSV, a formula-looking name defused", async () => {
    const tag = `Csv${Date.now().toString(36)}`;
    const a = await paidOrder(`${tag} "Quoted", Name`);
    const b = await placeOrder(`=${tag}`);
    const c = await placeOrder(`${tag};=2+5`);
    const response = await call(exportRoute.loader, `/dashboard/orders/export.csv?search=${tag}`, { auth: staff });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toMatch(/^attachment; filename="orders-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(response.body).toBeInstanceOf(ReadableStream);
    const lines = (await response.text()).trim().split("\r\n");
    expect(lines[0]).toBe(
      "order_id,created_at,status,kind,name,email,customer_id,amount,refunded,net,currency,paid_at,lines,stripe_session_id,stripe_payment_intent_id",
    );
    expect(lines).toHaveLength(4);
    expect(lines[1].startsWith(`"${c.id}",`)).toBe(true);
    expect(lines[1]).toContain(`,"${tag};'=2+5",`);
    expect(lines[2].startsWith(`"${b.id}",`)).toBe(true);
    expect(lines[2]).toContain(`,"'=${tag}",`);
    expect(lines[3]).toContain(`"${tag} ""Quoted"", Name"`);
    expect(lines[3]).toContain(`,"Paid","services",`);
    expect(lines[3]).toMatch(/,"[^"]*@example\.test","[0-9a-f-]{36}",\d+\.\d\d,0\.00,\d+\.\d\d,"usd",/);
    expect(lines[3]).toContain([`${services[0].name} x1`, `${services[1].name} x1`].sort().join("; "));
    // A spreadsheet that splits on ";" (and honours quotes) finds no cell that starts a formula.
    const outsideQuotes = lines.map((line) => line.replace(/"(?:[^"]|"")*"/g, '"…"'));
    expect(outsideQuotes.filter((line) => line.includes(";"))).toEqual([]);
    // Nor one that ignores the quotes and splits on "," or ";" (the amounts are numbers, never negative here).
    const formulaPieces = lines.flatMap((line) => line.split(/[,;]/)).filter((piece) => /^[\s"]*[=+\-@]/.test(piece));
    expect(formulaPieces).toEqual([]);
    expect(a.totalCents).toBeGreaterThan(0);
  });

  test("a customer gets 403, the signed-out go to sign in", async () => {
    expect((await call(exportRoute.loader, "/dashboard/orders/export.csv", { auth: { cookie: customer.cookie } })).status).toBe(403);
    const anonymous = await call(exportRoute.loader, "/dashboard/orders/export.csv");
    expect(anonymous.status).toBe(302);
  });
});
