import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, Outlet, useLoaderData } from "@remix-run/react";
import { Mail } from "lucide-react";

import { StaffPlanList } from "~/components/billing/staff-plan-list";
import { OnlineBadge } from "~/components/chat/online-badge";
import { BackLink } from "~/components/dashboard/back-link";
import { DetailTabs } from "~/components/dashboard/detail-tabs";
import { DashboardRouteError } from "~/components/dashboard/route-error";
import { SectionBoundary } from "~/components/ui/section-error";
import { formatDate } from "~/domain/purchase";
import { getUnreadCountsForTeam } from "~/models/chat.server";
import { toUserJson } from "~/models/customers.server";
import { listSubscriptionsForUser, toSubscriptions } from "~/models/subscriptions.server";
import { loadCustomer } from "~/web/guards.server";

/** /dashboard/users/:userId (staff): one customer, with Reports and Message tabs (its unread count on Message). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { staff, customer } = await loadCustomer(request, params.userId);
  // The unread badge is an extra: the customer still shows when it cannot be read.
  const { byCustomer } = await getUnreadCountsForTeam().catch(() => ({ byCustomer: {} as Record<string, number> }));
  const plans = await toSubscriptions(await listSubscriptionsForUser(customer.id));
  return { customer: toUserJson(customer), unread: byCustomer[customer.id] ?? 0, staffId: staff.id, plans };
}

export default function UserDetail() {
  const { customer, unread, staffId, plans } = useLoaderData<typeof loader>();
  const base = `/dashboard/users/${customer._id}`;
  return (
    <section aria-labelledby="user-heading" className="space-y-6">
      <BackLink to="/dashboard/users">Back to users</BackLink>
      <div className="flex flex-wrap items-center gap-4 rounded-card border border-slate-200 bg-white p-6 shadow-card">
        <span aria-hidden="true" className="flex size-14 items-center justify-center rounded-full bg-brand-100 text-xl font-bold text-brand-800">
          {customer.name.trim().charAt(0).toUpperCase() || "?"}
        </span>
        <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <h2 id="user-heading" className="text-2xl font-bold break-words text-slate-950">
              {customer.name}
            </h2>
            <OnlineBadge userId={customer._id} />
          </div>
          <p className="flex items-center gap-2 text-sm break-all text-slate-600">
            <Mail className="size-4 shrink-0" aria-hidden="true" />
            <a href={`mailto:${customer.email}`} className="hover:text-brand-700">
              {customer.email}
            </a>
          </p>
          <p className="text-sm text-slate-600">Customer since {formatDate(customer.createdAt)}</p>
          <Link to={`/dashboard/customers/${customer._id}`} className="text-sm font-semibold text-brand-700 hover:underline">
            Everything about this customer
          </Link>
        </div>
      </div>
      {plans.length > 0 ? <StaffPlanList customerId={customer._id} plans={plans} /> : null}
      <DetailTabs label="Customer" base={base} customerId={customer._id} unread={unread} viewer={{ id: staffId, role: "team" }} />
      <Outlet />
    </section>
  );
}

/** A detail page: on phones the dashboard layout leaves out its overview so the tabs and chat come first. */
export const handle = { detail: true };

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.customer.name ?? "User"} — BrandLift dashboard` }];

export function ErrorBoundary() {
  return <SectionBoundary message="Failed to load the user" fallback={<DashboardRouteError backTo="/dashboard/users" backLabel="Back to users" />} />;
}
