import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Outlet, useActionData, useLoaderData } from "@remix-run/react";

import { StaffPlanList } from "~/components/billing/staff-plan-list";
import { OnlineBadge } from "~/components/chat/online-badge";
import { ClientMembersSection } from "~/components/customer/client-members";
import { BriefsSection, GraderSection, NotesSection, OrdersSection } from "~/components/customer/customer-sections";
import { BackLink } from "~/components/dashboard/back-link";
import { DetailTabs } from "~/components/dashboard/detail-tabs";
import { EmailList } from "~/components/dashboard/email-list";
import { DashboardRouteError } from "~/components/dashboard/route-error";
import { ButtonLink } from "~/components/ui/button";
import { Inbox, Mail, UserX } from "~/components/ui/icons";
import { SectionBoundary } from "~/components/ui/section-error";
import type { CustomerProfile } from "~/domain/customer";
import { isDeletedAccount } from "~/domain/own-data";
import { formatDate } from "~/domain/purchase";
import { noteSchema } from "~/domain/schemas/workspace";
import { z } from "~/domain/zod";
import { readCustomerPage } from "~/models/customer-profile.server";
import { addThreadNote } from "~/models/thread-notes.server";
import { logger } from "~/utils/logger.server";
import { readForm } from "~/web/body-limit.server";
import { loadCustomer, pageNotFound } from "~/web/guards.server";
import { redirectWithToast } from "~/web/toast.server";
import { teamUnreadCounts } from "~/web/unread.server";

/**
 * /dashboard/users/:userId (staff): the one page of a customer (decision 280). Who they are, their
 * plans, the spec's Reports and Message tabs, and beside them briefs, orders and receipts, grader
 * results and the team's notes (a plain form posted here). A customer who deleted their account
 * is shown as such: no chat, no uploads, nothing to change.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { staff, customer } = await loadCustomer(request, params.userId);
  const [page, unread] = await Promise.all([
    // One statement (decision 329). The details beside the tabs are extras: when they cannot be read,
    // the customer, the tabs and their own sections ("Failed to load user purchases", with Retry) still show.
    readCustomerPage(customer.id).catch((error: unknown) => {
      logger.warn({ err: error, customerId: customer.id }, "the customer's details could not be read");
      return undefined;
    }),
    // The unread badge is an extra: the customer still shows when it cannot be read.
    teamUnreadCounts(request).catch(() => ({ byCustomer: {} as Record<string, number> })),
  ]);
  // Any member's id opens their client's page (decision 295): the client's id is its one address.
  if (page?.clientId && page.clientId !== customer.id) {
    const url = new URL(request.url);
    throw redirect(url.pathname.replace(`/dashboard/users/${customer.id}`, `/dashboard/users/${page.clientId}`) + url.search);
  }
  if (page === null || page?.profile === null) throw pageNotFound();
  // The Reports tab (the child route) reads and shows the purchases and reports: the page's profile leaves them out.
  const profile: CustomerProfile = page?.profile ?? {
    customer: { id: customer.id, name: customer.name, email: customer.email, createdAt: customer.createdAt.toISOString(), disabled: false },
    plans: [],
    purchases: [],
    receipts: [],
    totalPaid: { amountCents: 0, currency: "usd" },
    reports: [],
    grades: [],
    notes: [],
    briefs: [],
  };
  return {
    profile,
    emails: page?.emails ?? [],
    client: page?.client ?? null,
    deleted: isDeletedAccount(customer),
    unread: unread.byCustomer[customer.id] ?? 0,
    staffId: staff.id,
  };
}

// The page's one form: a note (any other intent is not one of its actions).
const noteForm = noteSchema.extend({ intent: z.literal("note", { error: "Unknown action." }) });

/** A note for the team (the form of the Internal notes section). */
export async function action({ request, params }: ActionFunctionArgs) {
  const { staff, customer } = await loadCustomer(request, params.userId);
  const submission = parseWithZod(await readForm(request), { schema: noteForm });
  if (submission.status !== "success") return data({ intent: "note" as const, result: submission.reply() }, { status: 400 });
  await addThreadNote(staff, customer.id, submission.value.body);
  return redirectWithToast(`/dashboard/users/${customer.id}`, { type: "success", message: "Note added. Only the team sees it." });
}

export default function CustomerPage() {
  const { profile, emails, client, deleted, unread, staffId } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { customer } = profile;
  const base = `/dashboard/users/${customer.id}`;
  return (
    <section aria-labelledby="user-heading" className="space-y-6">
      <BackLink to="/dashboard/users">Back to users</BackLink>
      <div className="flex flex-wrap items-center gap-4 rounded-card border border-slate-200 bg-white p-6 shadow-card">
        <span aria-hidden="true" className="flex size-14 items-center justify-center rounded-full bg-brand-100 text-xl font-bold text-brand-800">
          {deleted ? <UserX className="size-6" /> : customer.name.trim().charAt(0).toUpperCase() || "?"}
        </span>
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <h2 id="user-heading" className="text-2xl font-bold break-words text-slate-950">
              {customer.name}
            </h2>
            {deleted ? null : <OnlineBadge userId={customer.id} />}
          </div>
          {deleted ? (
            <p className="text-sm text-slate-700">
              This customer deleted their account: their name, e-mail, messages, files and reports are gone. Orders and purchases stay on the books; work that
              was still open can no longer be delivered and shows as cancelled.
            </p>
          ) : (
            <p className="flex items-center gap-2 text-sm break-all text-slate-600">
              <Mail className="size-4 shrink-0" aria-hidden="true" />
              <a href={`mailto:${customer.email}`} className="hover:text-brand-700">
                {customer.email}
              </a>
            </p>
          )}
          {client && (client.name !== customer.name || client.members.length > 1) ? (
            <p className="text-sm text-slate-700">
              Client <strong className="font-semibold text-slate-950">{client.name}</strong> · {client.members.length}{" "}
              {client.members.length === 1 ? "member" : "members"}
            </p>
          ) : null}
          <p className="text-sm text-slate-600">
            Customer since {formatDate(customer.createdAt)}
            {customer.disabled && !deleted ? " · the account is disabled" : ""}
          </p>
        </div>
        {deleted ? null : (
          <ButtonLink to={`/dashboard/inbox/${customer.id}`} variant="outline" size="sm">
            <Inbox className="size-4" aria-hidden="true" />
            Open in the inbox
          </ButtonLink>
        )}
        {deleted ? null : (
          // The client's approval settings (decision 292): a page of the client's, under the tabs.
          <ButtonLink to={`/dashboard/users/${customer.id}/approval`} variant="outline" size="sm">
            Approvals
          </ButtonLink>
        )}
      </div>
      {profile.plans.length > 0 ? <StaffPlanList customerId={customer.id} plans={profile.plans} /> : null}
      <div className="grid grid-cols-[minmax(0,1fr)] gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="min-w-0 space-y-6">
          {deleted ? null : <DetailTabs label="Customer" base={base} customerId={customer.id} unread={unread} viewer={{ id: staffId, role: "team" }} />}
          <Outlet />
        </div>
        <div className="min-w-0 space-y-4">
          {client ? <ClientMembersSection client={client} idPrefix="customer" /> : null}
          <BriefsSection profile={profile} idPrefix="customer" />
          <OrdersSection profile={profile} idPrefix="customer" />
          <GraderSection profile={profile} idPrefix="customer" />
          <EmailList emails={emails} back={base} headingId="customer-emails-heading" />
          <NotesSection
            profile={profile}
            idPrefix="customer"
            error={Object.values(actionData?.result.error ?? {})
              .flat()
              .join(" ")}
            action={base}
          />
        </div>
      </div>
    </section>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.profile.customer.name ?? "Customer"} — BrandLift dashboard` }];

export function ErrorBoundary() {
  return <SectionBoundary message="Failed to load the user" fallback={<DashboardRouteError backTo="/dashboard/users" backLabel="Back to users" />} />;
}
