import { ReportList } from "~/components/dashboard/report-list";
import { formatPeriod } from "~/domain/billing";
import type { Report } from "~/domain/purchase";

type PlanReport = Report & { period: string };

/** A plan's reports grouped by the month they cover, newest month first. */
export function PlanReports({ reports, empty, manageBase }: { reports: PlanReport[]; empty: string; manageBase?: string }) {
  if (reports.length === 0) return <ReportList reports={[]} empty={empty} />;
  const months = [...new Set(reports.map((r) => r.period))].sort().reverse();
  return (
    <div className="space-y-6">
      {months.map((period) => (
        <section key={period} aria-label={formatPeriod(period)} className="space-y-2">
          <h3 className="text-base font-semibold text-slate-800">{formatPeriod(period)}</h3>
          <ReportList reports={reports.filter((r) => r.period === period)} empty="" manageBase={manageBase} />
        </section>
      ))}
    </div>
  );
}
