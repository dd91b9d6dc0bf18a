import { and, desc, eq, sql } from "drizzle-orm";

import type { CustomerProfile } from "~/domain/customer";
import { isUuid } from "~/domain/ids";
import { db, schema } from "~/utils/db.server";
import { readTogether } from "~/utils/read-together.server";

import { selectBriefFilesOfUser, selectBriefsForStaff, staffBriefs } from "./briefs.server";
import { selectPlans } from "./catalogue.server";
import { clientIdIn, getClientForStaff, selectClient, selectClientIdOf, selectClientMembers, toClientMember } from "./clients.server";
import { selectEmailsOfCustomer, toListed } from "./emails.server";
import { selectPurchasesOfUser, toPurchase, type PurchaseRow } from "./purchases.server";
import { receiptReads, toReceipts } from "./receipts.server";
import { selectDeletedReports } from "./report-versions.server";
import { selectReportsOfUser, toReport, type ReportRow } from "./reports.server";
import { selectSubscriptionBriefsOfUser, selectSubscriptionsOfUser, subscriptionViews } from "./subscriptions.server";
import { selectThreadNotes, toThreadNote } from "./thread-notes.server";

/*
 * Everything staff know about one customer, read once: the inbox's customer pane and the
 * customer page (/dashboard/users/:id) both show this (docs/decisions/185, 280). Each is one
 * statement (decision 329): the model's own selects, read together.
 */

const GRADES_SHOWN = 10;
const u = schema.users;

/** What a profile is made of, without the purchases and reports: the models' selects, not yet run. */
function profileReads(customerId: string) {
  const isCustomer = and(eq(u.id, customerId), eq(u.role, "user"));
  return {
    customer: db.select({ id: u.id, name: u.name, email: u.email, createdAt: u.createdAt, disabledAt: u.disabledAt }).from(u).where(isCustomer).limit(1),
    subscriptions: selectSubscriptionsOfUser(customerId),
    subscriptionBriefs: selectSubscriptionBriefsOfUser(customerId),
    plans: selectPlans(),
    ...receiptReads(customerId),
    // Leads keep the address in lower case (db/schema/grader.ts); the grader result is whoever graded with this address.
    grades: db
      .select({ id: schema.grades.id, overall: schema.grades.overall, score: schema.grades.score, createdAt: schema.leads.createdAt })
      .from(schema.leads)
      .innerJoin(schema.grades, eq(schema.grades.id, schema.leads.gradeId))
      .where(eq(schema.leads.email, sql`lower((select ${u.email} from ${u} where ${isCustomer}))`))
      .orderBy(desc(schema.leads.createdAt), desc(schema.leads.id))
      .limit(GRADES_SHOWN),
    notes: selectThreadNotes(customerId),
    briefs: selectBriefsForStaff({ userId: customerId }),
    briefFiles: selectBriefFilesOfUser(customerId),
  };
}

type ProfileRows = { [K in keyof ReturnType<typeof profileReads>]: Awaited<ReturnType<typeof profileReads>[K]> };

function toProfile(rows: ProfileRows, work: { purchases: PurchaseRow[]; reports: ReportRow[] }): CustomerProfile | null {
  const [customer] = rows.customer;
  if (!customer) return null;
  const receipts = toReceipts(rows);
  const paidCents = receipts.reduce((sum, r) => sum + r.amountCents - r.refundedCents, 0);
  return {
    customer: {
      id: customer.id,
      name: customer.name,
      email: customer.email,
      createdAt: customer.createdAt.toISOString(),
      disabled: customer.disabledAt !== null,
    },
    plans: subscriptionViews(rows.subscriptions, rows.plans, rows.subscriptionBriefs),
    purchases: work.purchases.map(toPurchase),
    receipts,
    totalPaid: { amountCents: paidCents, currency: receipts[0]?.currency ?? "usd" },
    reports: work.reports.map(toReport),
    grades: rows.grades.map((g) => ({ id: g.id, overall: g.overall, score: g.score, createdAt: g.createdAt.toISOString() })),
    notes: rows.notes.map(toThreadNote),
    briefs: staffBriefs(rows.briefs, rows.plans, rows.briefFiles),
  };
}

/**
 * The customer's profile, plans and billing state, purchases, receipts and total paid, reports, grader
 * results (by e-mail), notes and briefs, in one statement; null when the id is no customer.
 */
export async function getCustomerProfile(customerId: string): Promise<CustomerProfile | null> {
  if (!isUuid(customerId)) return null;
  const rows = await readTogether({ ...profileReads(customerId), purchases: selectPurchasesOfUser(customerId), reports: selectReportsOfUser(customerId) });
  return toProfile(rows, rows);
}

/**
 * Staff's page of a customer, in one statement: the client their account belongs to (the page
 * moves to the client's own id when it is another), the profile without the purchases and reports
 * (its Reports tab reads those: readCustomerWork), the client with its members, and the e-mails.
 * `client` is the client whose id is this customer's; null when the account is another's member.
 */
export async function readCustomerPage(customerId: string) {
  if (!isUuid(customerId)) return null;
  const rows = await readTogether({
    ...profileReads(customerId),
    clientOf: selectClientIdOf(customerId),
    client: selectClient(customerId),
    members: selectClientMembers(customerId),
    emails: selectEmailsOfCustomer(customerId),
  });
  const clientId = clientIdIn(rows.clientOf);
  const [row] = rows.client;
  const client =
    clientId !== customerId
      ? null
      : row
        ? { id: row.id, name: row.name, members: rows.members.map(toClientMember), createdAt: row.createdAt.toISOString() }
        : // An account a node that predates client teams created has no client row yet: the usual read makes it.
          await getClientForStaff(customerId, clientId).then(
            (found) => found.client,
            () => null,
          );
  return { clientId, profile: toProfile(rows, { purchases: [], reports: [] }), client, emails: rows.emails.map(toListed) };
}

/** The Reports tab of staff's customer page, in one statement: the purchases, reports, deleted reports and plans. */
export function readCustomerWork(customerId: string) {
  return readTogether({
    purchases: selectPurchasesOfUser(customerId),
    reports: selectReportsOfUser(customerId),
    deleted: selectDeletedReports(customerId),
    plans: selectSubscriptionsOfUser(customerId),
  });
}
