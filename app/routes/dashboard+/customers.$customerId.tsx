import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { Inbox, Mail, Upload } from "lucide-react";

import { ChatPanel } from "~/components/chat/chat-panel";
import {
  BriefsSection,
  GraderSection,
  NotesSection,
  OrdersSection,
  PlanSection,
  PurchasesSection,
  ReportsSection,
} from "~/components/customer/customer-sections";
import { BackLink } from "~/components/dashboard/back-link";
import { PageHeader } from "~/components/dashboard/page-header";
import { DashboardRouteError } from "~/components/dashboard/route-error";
import { ButtonLink } from "~/components/ui/button";
import { supportRoomId } from "~/domain/chat";
import { formatDate } from "~/domain/purchase";
import { noteSchema } from "~/domain/schemas/workspace";
import { getCustomerProfile } from "~/models/customer-profile.server";
import { getOtherSideReceipt } from "~/models/inbox.server";
import { addThreadNote } from "~/models/thread-notes.server";
import { requireTeam } from "~/web/auth.server";
import { readForm } from "~/web/body-limit.server";
import { pageNotFound } from "~/web/guards.server";
import { redirectWithToast } from "~/web/toast.server";

/**
 * /dashboard/customers/:customerId (team): everything about one customer on one page — profile,
 * plan and billing state, purchases, orders and receipts, reports, the conversation (with its
 * notes), notes and grader results. The same profile read as the inbox's customer pane
 * (models/customer-profile.server.ts). Adding a note is a form (no JavaScript needed).
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const staff = await requireTeam(request);
  const profile = await getCustomerProfile(params.customerId ?? "");
  if (!profile) throw pageNotFound();
  const seenId = await getOtherSideReceipt(supportRoomId(profile.customer._id), staff);
  return { profile, seenId, currentUser: { id: staff.id, name: staff.name, role: staff.role } };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const staff = await requireTeam(request);
  const form = await readForm(request);
  if (form.get("intent") !== "note") return data({ intent: "note" as const, error: "Unknown action." }, { status: 400 });
  const parsed = noteSchema.safeParse({ body: form.get("body") ?? "" });
  if (!parsed.success) return data({ intent: "note" as const, error: parsed.error.issues[0]!.message }, { status: 400 });
  await addThreadNote(staff, params.customerId ?? "", parsed.data.body).catch((error: { status?: number }) => {
    if (error.status === 404) throw pageNotFound();
    throw error;
  });
  return redirectWithToast(new URL(request.url).pathname, { type: "success", message: "Note added. Only the team sees it." });
}

export default function CustomerPage() {
  const { profile, seenId, currentUser } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { customer } = profile;
  return (
    <section aria-labelledby="customer-heading" className="space-y-6">
      <BackLink to="/dashboard/users">Back to users</BackLink>
      <PageHeader
        id="customer-heading"
        title={customer.name}
        description={
          <span className="flex flex-wrap items-center gap-x-4 gap-y-1">
            <span className="flex items-center gap-2 break-all">
              <Mail className="size-4 shrink-0" aria-hidden="true" />
              <a href={`mailto:${customer.email}`} className="hover:text-brand-700">
                {customer.email}
              </a>
            </span>
            <span>Customer since {formatDate(customer.createdAt)}</span>
          </span>
        }
        actions={
          <>
            <ButtonLink to={`/dashboard/inbox/${customer._id}`} variant="outline" size="sm">
              <Inbox className="size-4" aria-hidden="true" />
              Open in the inbox
            </ButtonLink>
            <ButtonLink to={`/dashboard/users/${customer._id}`} variant="outline" size="sm">
              <Upload className="size-4" aria-hidden="true" />
              Upload reports
            </ButtonLink>
          </>
        }
      />
      <div className="grid grid-cols-[minmax(0,1fr)] gap-4 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="min-w-0 space-y-4">
          <PurchasesSection profile={profile} idPrefix="customer" />
          <BriefsSection profile={profile} idPrefix="customer" />
          <OrdersSection profile={profile} idPrefix="customer" />
          <ReportsSection profile={profile} idPrefix="customer" />
          <ChatPanel customerId={customer._id} currentUser={currentUser} seenId={seenId} notes={profile.notes} />
        </div>
        <div className="min-w-0 space-y-4">
          <PlanSection profile={profile} idPrefix="customer" />
          <GraderSection profile={profile} idPrefix="customer" />
          <NotesSection profile={profile} idPrefix="customer" error={actionData?.error} />
        </div>
      </div>
    </section>
  );
}

/** A detail page: on phones the dashboard layout leaves out its overview, so the customer comes first. */
export const handle = { detail: true };

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.profile.customer.name ?? "Customer"} — BrandLift dashboard` }];

export function ErrorBoundary() {
  return <DashboardRouteError backTo="/dashboard/users" backLabel="Back to users" />;
}
