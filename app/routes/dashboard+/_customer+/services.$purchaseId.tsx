import { redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Outlet, useLoaderData } from "@remix-run/react";

import { BriefBadge, BriefLink } from "~/components/brief/briefs-needed";
import { BackLink } from "~/components/dashboard/back-link";
import { DetailTabs } from "~/components/dashboard/detail-tabs";
import { DashboardRouteError } from "~/components/dashboard/route-error";
import { Badge, StatusBadge } from "~/components/ui/badge";
import { SectionBoundary } from "~/components/ui/section-error";
import { formatCents } from "~/domain/format";
import { ownerKey } from "~/domain/permissions";
import { formatDate } from "~/domain/purchase";
import { getUnreadCountForMember } from "~/models/chat.server";
import { loadOwnPurchase } from "~/web/guards.server";

/**
 * /dashboard/services/:purchaseId: one purchased service, its Reports and Message tabs below; the
 * customer's unread replies (one support thread for all their services) as a badge on Message.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { user, purchase } = await loadOwnPurchase(request, params.purchaseId);
  // Staff reach a customer's purchase through that customer's page.
  if (user.role === "team") throw redirect(purchase.userId ? `/dashboard/users/${purchase.userId}` : "/dashboard/users");
  // The unread badge is an extra: the service still shows when it cannot be read.
  return { purchase: purchase.view, unread: await getUnreadCountForMember(ownerKey(user), user.id).catch(() => 0), userId: user.id };
}

export default function ServiceDetail() {
  const { purchase, unread, userId } = useLoaderData<typeof loader>();
  const base = `/dashboard/services/${purchase.id}`;
  return (
    <section aria-labelledby="service-heading" className="space-y-6">
      <BackLink to="/dashboard/services">Back to services</BackLink>
      <div className="rounded-card border border-slate-200 bg-white p-6 shadow-card">
        <div className="flex flex-wrap items-start justify-between gap-4">
          <div className="min-w-0">
            <h2 id="service-heading" className="text-2xl font-bold text-slate-950">
              {purchase.service.name}
            </h2>
            <div className="mt-2 flex flex-wrap items-center gap-2">
              <StatusBadge status={purchase.status} />
              {purchase.quantity > 1 ? <Badge tone="brand">Qty {purchase.quantity}</Badge> : null}
              <BriefBadge brief={purchase.brief} />
            </div>
          </div>
          <p className="text-2xl font-bold text-slate-950 tabular-nums">{formatCents(purchase.amountCents, purchase.currency)}</p>
        </div>
        {purchase.brief.required ? <BriefLink href={`/dashboard/services/${purchase.id}/brief`} sent={!!purchase.brief.submittedAt} className="mt-4" /> : null}
        <p className="mt-4 max-w-prose text-slate-700">{purchase.service.description || "No description available for this service."}</p>
        <dl className="mt-5 grid gap-4 text-sm sm:grid-cols-2">
          <div>
            <dt className="font-medium text-slate-600">Purchase date</dt>
            <dd className="font-semibold text-slate-950">
              <time dateTime={purchase.createdAt}>{formatDate(purchase.createdAt)}</time>
            </dd>
          </div>
          <div>
            <dt className="font-medium text-slate-600">Quantity</dt>
            <dd className="font-semibold text-slate-950">{purchase.quantity}</dd>
          </div>
        </dl>
      </div>
      <DetailTabs label="Service" base={base} customerId={userId} unread={unread} viewer={{ id: userId, role: "user" }} />
      <Outlet />
    </section>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.purchase.service.name ?? "Service"} — BrandLift dashboard` }];

export function ErrorBoundary() {
  return <SectionBoundary message="Failed to load services" fallback={<DashboardRouteError backTo="/dashboard/services" backLabel="Back to services" />} />;
}
