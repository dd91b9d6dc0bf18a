import { redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { FileText } from "lucide-react";

import { DownloadButton } from "~/components/dashboard/download-button";
import { FileIcon } from "~/components/dashboard/file-icon";
import { EmptyState } from "~/components/ui/empty-state";
import { SectionBoundary } from "~/components/ui/section-error";
import { formatFileSize } from "~/domain/format";
import { can, ownerKey } from "~/domain/permissions";
import { formatDate } from "~/domain/purchase";
import { markReportsSeen } from "~/models/report-notices.server";
import { listReportsForUser, toReport } from "~/models/reports.server";
import { requireMemberPage } from "~/web/guards.server";

/** /dashboard/reports: every report of the signed-in customer as a card grid. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireMemberPage(request, "reports:list-own");
  if (!can(user, "reports:list-own")) throw redirect("/dashboard/users");
  const reports = await listReportsForUser(ownerKey(user));
  // Looking at the reports ends the quiet period of report-ready e-mails (one per batch).
  await markReportsSeen(ownerKey(user));
  return { reports: reports.map(toReport) };
}

type ReportsData = ReturnType<typeof useLoaderData<typeof loader>>;

export default function Reports() {
  return <ReportsView {...useLoaderData<typeof loader>()} />;
}

function ReportsView({ reports }: ReportsData) {
  return (
    <section aria-labelledby="reports-heading" className="space-y-4">
      <h2 id="reports-heading" className="text-xl font-bold text-slate-950">
        Your Reports
      </h2>
      {reports.length === 0 ? (
        <EmptyState icon={FileText} title="No Reports Available" text="Reports our team prepares for your services will appear here." />
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
          {reports.map((report) => (
            <li key={report.id} className="flex flex-col gap-4 rounded-card border border-slate-200 bg-white p-5 shadow-card">
              <div className="flex items-start gap-4">
                <FileIcon mimeType={report.mimeType} />
                <div className="min-w-0">
                  <h3 className="font-semibold break-words text-slate-950">{report.title}</h3>
                  <p className="text-sm text-slate-600">
                    <time dateTime={report.createdAt}>{formatDate(report.createdAt)}</time> · {formatFileSize(report.fileSize)}
                  </p>
                </div>
              </div>
              <p className="text-sm font-medium text-brand-700">{report.service.name}</p>
              {report.description ? <p className="text-sm break-words text-slate-700">{report.description}</p> : null}
              <div className="mt-auto">
                <DownloadButton reportId={report.id} title={report.title} />
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: "Reports — BrandLift dashboard" }];

/** The reports could not be read: the sidebar and overview stay, Retry reloads only this list. */
export function ErrorBoundary() {
  return <SectionBoundary<ReportsData> message="Failed to load reports" render={(data) => <ReportsView {...data} />} />;
}
