import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";

import { listBriefsForStaff, selectBriefsForStaff } from "~/models/briefs.server";
import { getClientForStaff } from "~/models/clients.server";
import { getCustomerProfile, readCustomerPage, readCustomerWork } from "~/models/customer-profile.server";
import { selectEmailsOfCustomer } from "~/models/emails.server";
import { listPurchasesForUser, toPurchase } from "~/models/purchases.server";
import { receiptReads } from "~/models/receipts.server";
import { selectDeletedReports } from "~/models/report-versions.server";
import { listReportsForUser, toReport } from "~/models/reports.server";
import { listSubscriptionsForUser, toSubscriptions } from "~/models/subscriptions.server";
import { addThreadNote, listThreadNotes, selectThreadNotes } from "~/models/thread-notes.server";
import { db, schema } from "~/utils/db.server";
import { readTogether } from "~/utils/read-together.server";

import { catalogue, createAccount, createPurchase } from "../support/dashboard-helpers";
import { unique } from "../support/factories";

/** Staff's customer page in one statement (decision 329): the same data as each read alone. */

async function customerWithEverything() {
  const services = await catalogue();
  const staff = await createAccount("team", { name: "Sam Staff" });
  const customer = await createAccount("user", { name: "Casey Many" });
  const id = customer.user.id;
  const bought = [];
  for (const [index, service] of services.slice(0, 3).entries()) {
    bought.push(await createPurchase(id, service, { status: index === 1 ? "completed" : "in_progress" }));
  }
  for (const [index, { purchase }] of bought.entries()) {
    await db.insert(schema.reports).values({
      userId: id,
      serviceId: services[index]!.id,
      purchaseId: purchase.id,
      title: `Report ${index}`,
      fileName: `report-${index}.pdf`,
      fileSize: 1000 + index,
      mimeType: "application/pdf",
      storageKey: `reports/${unique()}.pdf`,
      deletedAt: index === 2 ? new Date() : null,
    });
  }
  const [first, second] = await db
    .insert(schema.subscriptions)
    .values([
      { userId: id, planId: "starter", status: "active", priceCents: 4900 },
      { userId: id, planId: "no-such-plan", status: "canceled", priceCents: 100 },
    ])
    .returning();
  await db.insert(schema.subscriptions).values({ userId: id, planId: "starter", status: "incomplete", priceCents: 4900 });
  await db.insert(schema.briefs).values([
    { purchaseId: bought[0]!.purchase.id, userId: id, questions: [{ id: "brand", label: "Brand", type: "text", required: true }] as never, paidAt: new Date() },
    { subscriptionId: first!.id, userId: id, questions: [] as never, paidAt: new Date(Date.now() - 1000), submittedAt: new Date() },
    { subscriptionId: second!.id, userId: id, questions: [] as never, paidAt: new Date(Date.now() - 2000) },
  ]);
  await db.insert(schema.invoices).values({
    stripeInvoiceId: `in_${unique()}`,
    subscriptionId: first!.id,
    userId: id,
    renewal: true,
    amountCents: 4900,
    currency: "usd",
    paidAt: new Date(),
  });
  await addThreadNote(staff.user, id, "First note");
  await addThreadNote(staff.user, id, "Second note");
  return { id, bought, services };
}

describe("staff's customer page reads in one statement", () => {
  test("readTogether answers each select's rows as awaiting it alone: columns, nested objects, left joins without a row, order", async () => {
    const { id } = await customerWithEverything();
    const reads = () => ({
      ...receiptReads(id),
      notes: selectThreadNotes(id),
      briefs: selectBriefsForStaff({ userId: id }),
      deleted: selectDeletedReports(id),
      emails: selectEmailsOfCustomer(id),
      // A left-joined table selected whole: null when it has no row, as drizzle answers.
      withPurchase: db
        .select({ brief: schema.briefs, purchase: schema.purchases })
        .from(schema.briefs)
        .leftJoin(schema.purchases, eq(schema.purchases.id, schema.briefs.purchaseId))
        .where(eq(schema.briefs.userId, id))
        .orderBy(schema.briefs.paidAt),
    });
    const alone = Object.fromEntries(await Promise.all(Object.entries(reads()).map(async ([key, read]) => [key, await read])));
    const together = await readTogether(reads());
    expect(together).toEqual(alone);
    expect(together.renewals).toHaveLength(1);
    expect(together.withPurchase.map((row) => row.purchase === null)).toEqual([true, true, false]);
    expect(together.notes.map((note) => note.body)).toEqual(["First note", "Second note"]);
  });

  test("the page's profile, client and e-mails, the Reports tab and the inbox's profile are what the separate reads answer", async () => {
    const { id, bought, services } = await customerWithEverything();
    const page = (await readCustomerPage(id))!;
    const plans = await toSubscriptions(await listSubscriptionsForUser(id));
    const separate = {
      plans,
      notes: await listThreadNotes(id),
      briefs: await listBriefsForStaff({ userId: id }),
    };
    expect(page.clientId).toBe(id);
    expect(page.client).toEqual((await getClientForStaff(id)).client);
    expect(page.profile).toMatchObject({ ...separate, purchases: [], reports: [] });
    const [starter] = await db.select().from(schema.plans).where(eq(schema.plans.key, "starter"));
    expect(page.profile!.plans.map((plan) => [plan.plan.name, plan.brief]).sort()).toEqual([
      [starter!.name, { required: true, submittedAt: expect.any(String) }],
      ["no-such-plan", { required: true, submittedAt: null }],
    ]);
    expect(page.profile!.briefs.map((brief) => brief.title)).toEqual([services[0]!.name, `${starter!.name} plan`, "no-such-plan plan"]);
    expect(page.profile!.receipts).toHaveLength(bought.length + 1);

    const work = await readCustomerWork(id);
    expect(work).toEqual({
      purchases: await listPurchasesForUser(id),
      reports: await listReportsForUser(id),
      deleted: await selectDeletedReports(id),
      plans: await listSubscriptionsForUser(id),
    });
    expect(work.purchases).toHaveLength(3);
    expect(work.reports).toHaveLength(2);
    expect(work.deleted).toHaveLength(1);
    expect(work.plans).toHaveLength(2);

    const inbox = (await getCustomerProfile(id))!;
    expect(inbox).toEqual({
      ...page.profile,
      purchases: (await listPurchasesForUser(id)).map(toPurchase),
      reports: (await listReportsForUser(id)).map(toReport),
    });
  });
});
