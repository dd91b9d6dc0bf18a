import { redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Outlet, useLoaderData } from "@remix-run/react";

import { PlanCard } from "~/components/billing/plan-card";
import { ManageBillingButton, PaymentSteps } from "~/components/billing/plan-overview";
import { BriefLink } from "~/components/brief/briefs-needed";
import { BackLink } from "~/components/dashboard/back-link";
import { DetailTabs } from "~/components/dashboard/detail-tabs";
import { DashboardRouteError } from "~/components/dashboard/route-error";
import { can, ownerKey } from "~/domain/permissions";
import { getUnreadCountForMember } from "~/models/chat.server";
import { loadOwnSubscription } from "~/web/guards.server";

/**
 * /dashboard/plans/:subscriptionId: a subscriber's plan, with the same Reports and Message tabs a
 * purchased service has. Staff reach a customer's plan from that customer's page.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { user, row, subscription } = await loadOwnSubscription(request, params.subscriptionId);
  if (can(user, "area:team")) throw redirect(`/dashboard/users/${row.userId}/plans/${row.id}`);
  return { subscription, unread: await getUnreadCountForMember(ownerKey(user), user.id), userId: user.id };
}

export default function PlanDetail() {
  const { subscription, unread, userId } = useLoaderData<typeof loader>();
  return (
    <section aria-label="Plan" className="space-y-6">
      <BackLink to="/dashboard/services">Back to services</BackLink>
      <PlanCard
        subscription={subscription}
        headingLevel={2}
        pastDueSteps={<PaymentSteps subscriptionId={subscription.id} />}
        actions={
          <>
            {subscription.brief.required ? <BriefLink href={`/dashboard/plans/${subscription.id}/brief`} sent={!!subscription.brief.submittedAt} /> : null}
            {subscription.status !== "canceled" ? <ManageBillingButton /> : null}
          </>
        }
      />
      <DetailTabs label="Plan" base={`/dashboard/plans/${subscription.id}`} customerId={userId} unread={unread} viewer={{ id: userId, role: "user" }} />
      <Outlet />
    </section>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.subscription.plan.name ?? "Plan"} — BrandLift dashboard` }];

export function ErrorBoundary() {
  return <DashboardRouteError backTo="/dashboard/services" backLabel="Back to services" />;
}
