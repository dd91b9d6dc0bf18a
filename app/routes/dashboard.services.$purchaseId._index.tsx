import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ReportList } from "~/components/dashboard/report-list";
import { loadOwnPurchase } from "~/models/dashboard.server";
import { listReportsForService, toReportJson } from "~/models/reports.server";

/** The Reports tab of a purchased service (its own guard: a layout's check protects nothing here). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { purchase } = await loadOwnPurchase(request, params.purchaseId);
  const reports = purchase.userId ? await listReportsForService(purchase.userId, purchase.serviceId) : [];
  return { reports: reports.map(toReportJson) };
}

export default function ServiceReports() {
  const { reports } = useLoaderData<typeof loader>();
  return (
    <section aria-label="Reports">
      <ReportList reports={reports} empty="No reports available for this service yet." />
    </section>
  );
}
