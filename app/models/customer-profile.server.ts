import { and, desc, eq, sql } from "drizzle-orm";

import type { CustomerProfile } from "~/domain/customer";
import { isUuid } from "~/domain/ids";
import { db, schema } from "~/utils/db.server";

import { listBriefsForStaff } from "./briefs.server";
import { listPurchasesForUser, toPurchase } from "./purchases.server";
import { listReceiptsForUser } from "./receipts.server";
import { listReportsForUser, toReport } from "./reports.server";
import { listSubscriptionsForUser, toSubscriptions } from "./subscriptions.server";
import { listThreadNotes } from "./thread-notes.server";

/*
 * Everything staff know about one customer, read once: the inbox's customer pane and the
 * customer page (/dashboard/users/:id) both show this (docs/decisions/185, 280).
 */

const GRADES_SHOWN = 10;

/**
 * The customer's profile, plans and billing state, purchases, receipts and total paid, reports, grader
 * results (by e-mail) and notes; null when the id is no customer. `work: false` leaves the purchases and
 * reports empty, unread: the customer page's Reports tab reads and shows them itself; `subscriptions`
 * reads the plans the page shares with that tab (one read per request).
 */
export async function getCustomerProfile(
  customerId: string,
  options: { work?: boolean; subscriptions?: () => ReturnType<typeof listSubscriptionsForUser> } = {},
): Promise<CustomerProfile | null> {
  if (!isUuid(customerId)) return null;
  const u = schema.users;
  const [customer] = await db
    .select({ id: u.id, name: u.name, email: u.email, createdAt: u.createdAt, disabledAt: u.disabledAt })
    .from(u)
    .where(and(eq(u.id, customerId), eq(u.role, "user")))
    .limit(1);
  if (!customer) return null;
  const work = options.work ?? true;
  const [purchases, reports, subscriptions, receipts, grades, notes, briefs] = await Promise.all([
    work ? listPurchasesForUser(customer.id) : [],
    work ? listReportsForUser(customer.id) : [],
    options.subscriptions ? options.subscriptions() : listSubscriptionsForUser(customer.id),
    listReceiptsForUser(customer.id),
    // Leads keep the address in lower case (db/schema/grader.ts); the grader result is whoever graded with this address.
    db
      .select({ id: schema.grades.id, overall: schema.grades.overall, score: schema.grades.score, createdAt: schema.leads.createdAt })
      .from(schema.leads)
      .innerJoin(schema.grades, eq(schema.grades.id, schema.leads.gradeId))
      .where(eq(schema.leads.email, sql`lower(${customer.email})`))
      .orderBy(desc(schema.leads.createdAt), desc(schema.leads.id))
      .limit(GRADES_SHOWN),
    listThreadNotes(customer.id),
    listBriefsForStaff({ userId: customer.id }),
  ]);
  const paidCents = receipts.reduce((sum, r) => sum + r.amountCents - r.refundedCents, 0);
  return {
    customer: {
      id: customer.id,
      name: customer.name,
      email: customer.email,
      createdAt: customer.createdAt.toISOString(),
      disabled: customer.disabledAt !== null,
    },
    plans: await toSubscriptions(subscriptions),
    purchases: purchases.map(toPurchase),
    receipts,
    totalPaid: { amountCents: paidCents, currency: receipts[0]?.currency ?? "usd" },
    reports: reports.map(toReport),
    grades: grades.map((g) => ({ id: g.id, overall: g.overall, score: g.score, createdAt: g.createdAt.toISOString() })),
    notes,
    briefs,
  };
}
