import fs from "node:fs";
import { eq, sql } from "drizzle-orm";
import { expect, test } from "vitest";

import { getTeamCounts } from "~/models/stats.server";
import { db, schema } from "~/utils/db.server";

/*
 * Migration 0016 turns every renewal paid before it into an order of kind "renewal"
 * (decision 175), with what Stripe had refunded of it, so the orders list, the CSV and revenue read
 * one table. Here renewals are written the old way (an invoice only) and its backfill runs again.
 */

function backfillStatements() {
  return fs
    .readFileSync("db/migrations/0016_subscriptions_first_class.sql", "utf8")
    .split("--> statement-breakpoint")
    .map((s) => s.trim())
    .filter((s) => s.includes('FROM "invoices"') || s.startsWith('UPDATE "invoices"'));
}

test("renewals recorded as invoices only become orders, refunds and revenue unchanged", async () => {
  const [customer] = await db.insert(schema.users).values({ email: "legacy-plan@old.test", name: "Lou Legacy" }).returning();
  const [signUp] = await db
    .insert(schema.orders)
    .values({
      kind: "subscription",
      email: customer.email,
      name: customer.name,
      userId: customer.id,
      status: "paid",
      totalCents: 15900,
      planId: "pro",
      paidAt: new Date(),
    })
    .returning();
  const [subscription] = await db
    .insert(schema.subscriptions)
    .values({ orderId: signUp.id, userId: customer.id, planId: "pro", status: "active", priceCents: 15900, stripeCustomerId: "cus_legacy" })
    .returning();
  const invoice = (id: string, refundedCents: number) => ({
    stripeInvoiceId: id,
    subscriptionId: subscription.id,
    userId: null,
    renewal: true,
    billingReason: "subscription_cycle",
    amountCents: 15900,
    refundedCents,
    paidAt: new Date(Date.UTC(2026, 9, 3)),
    stripePaymentIntentId: `pi_${id}`,
  });
  const [whole, part] = await db
    .insert(schema.invoices)
    .values([invoice("in_whole", 0), invoice("in_part", 5000)])
    .returning();
  // Before the migration, revenue was the orders plus these renewals: 159 + 159 + (159 - 50).
  const expectedCents = 15900 + 15900 + 10900;

  for (const statement of backfillStatements()) await db.execute(sql.raw(statement));

  const renewals = await db.select().from(schema.orders).where(eq(schema.orders.kind, "renewal"));
  expect(renewals.map((o) => [o.id, o.status, o.totalCents, o.refundedCents, o.email, o.subscriptionId, o.stripePaymentIntentId]).sort()).toEqual(
    [
      [part.id, "partially_refunded", 15900, 5000, "legacy-plan@old.test", subscription.id, "pi_in_part"],
      [whole.id, "paid", 15900, 0, "legacy-plan@old.test", subscription.id, "pi_in_whole"],
    ].sort(),
  );
  expect(await db.select({ amount: schema.refunds.amountCents }).from(schema.refunds).where(eq(schema.refunds.orderId, part.id))).toEqual([{ amount: 5000 }]);
  expect((await db.select().from(schema.invoices).where(eq(schema.invoices.id, whole.id)))[0].orderId).toBe(whole.id);
  expect((await getTeamCounts()).totalRevenueCents).toBe(expectedCents);

  // Run again (a migration re-applied by hand): nothing doubles.
  for (const statement of backfillStatements()) await db.execute(sql.raw(statement));
  expect(await db.$count(schema.orders, eq(schema.orders.kind, "renewal"))).toBe(2);
});
