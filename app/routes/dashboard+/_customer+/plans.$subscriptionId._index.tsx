import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";

import { PlanReports } from "~/components/billing/plan-reports";
import { listPlanReports } from "~/models/plan-reports.server";
import { loadOwnSubscription } from "~/web/guards.server";

/** The Reports tab of a plan: its reports, month by month (its own guard: the layout's protects nothing here). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { row } = await loadOwnSubscription(request, params.subscriptionId);
  return { reports: await listPlanReports(row.id) };
}

export default function PlanReportsTab() {
  const { reports } = useLoaderData<typeof loader>();
  return (
    <section aria-label="Reports">
      <PlanReports reports={reports} empty="No reports for this plan yet. Your first monthly report appears here." />
    </section>
  );
}
