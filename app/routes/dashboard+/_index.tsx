import { redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";

import { Overview, type OverviewCounts } from "~/components/dashboard/overview";
import { PageHeader } from "~/components/dashboard/page-header";
import { RevenueChart } from "~/components/dashboard/revenue-chart";
import { ButtonLink } from "~/components/ui/button";
import { SectionError } from "~/components/ui/section-error";
import { can } from "~/domain/permissions";
import { revenueByMonth } from "~/models/revenue.server";
import { getTeamCounts } from "~/models/stats.server";
import { getSubscriptionMetrics } from "~/models/subscriptions.server";
import { requireUser } from "~/web/auth.server";
import { customerHome } from "~/web/guards.server";
import { loadSection } from "~/web/sections.server";

/**
 * /dashboard: for staff the Overview (the cards and the 12-month chart), which lives here only
 * (decision 155); customers go to their Services.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  if (!can(user, "area:team")) throw redirect(customerHome(user));
  const [counts, revenue] = await Promise.all([
    loadSection<OverviewCounts>("overview", async () => ({ role: "team", ...(await getTeamCounts()), ...(await getSubscriptionMetrics()) })),
    // Revenue and orders per month, drawn as SVG on the server (components/dashboard/revenue-chart).
    loadSection("revenue", () => revenueByMonth(12)),
  ]);
  return { name: user.name, counts, revenue };
}

export default function StaffOverview() {
  const { name, counts, revenue } = useLoaderData<typeof loader>();
  return (
    <div className="space-y-8">
      <PageHeader
        id="overview-heading"
        title="Overview"
        description={`Welcome back, ${name.split(" ")[0]}: revenue, bookings and your customers at a glance.`}
        actions={
          <>
            <ButtonLink to="/dashboard/work" size="sm">
              My work
            </ButtonLink>
            <ButtonLink to="/dashboard/inbox" size="sm" variant="outline">
              Inbox
            </ButtonLink>
            <ButtonLink to="/dashboard/orders" size="sm" variant="outline">
              Orders
            </ButtonLink>
          </>
        }
      />
      <Overview counts={counts} />
      {revenue.ok ? <RevenueChart months={revenue.data} /> : <SectionError message="Failed to load the revenue chart" retryHref="/dashboard" />}
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: "Overview — BrandLift" }];
