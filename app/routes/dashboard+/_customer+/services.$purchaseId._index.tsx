import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";

import { ReportList } from "~/components/dashboard/report-list";
import { SectionBoundary } from "~/components/ui/section-error";
import { ownerKey } from "~/domain/permissions";
import { markReportsSeen } from "~/models/report-notices.server";
import { listReportsForService, toReport } from "~/models/reports.server";
import { loadOwnPurchase } from "~/web/guards.server";

/** The Reports tab of a purchased service (its own guard: a layout's check protects nothing here). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { user, purchase } = await loadOwnPurchase(request, params.purchaseId);
  const reports = purchase.userId ? await listReportsForService(purchase.userId, purchase.serviceId) : [];
  if (ownerKey(user) === purchase.userId) await markReportsSeen(purchase.userId);
  return { reports: reports.map(toReport) };
}

type ServiceReportsData = ReturnType<typeof useLoaderData<typeof loader>>;

export default function ServiceReports() {
  return <ServiceReportsView {...useLoaderData<typeof loader>()} />;
}

export function ErrorBoundary() {
  return <SectionBoundary<ServiceReportsData> index message="Failed to load reports" render={(data) => <ServiceReportsView {...data} />} />;
}

function ServiceReportsView({ reports }: ServiceReportsData) {
  return (
    <section aria-label="Reports">
      <ReportList reports={reports} empty="No reports available for this service yet." />
    </section>
  );
}
