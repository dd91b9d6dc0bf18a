import { Link } from "@remix-run/react";

import { buttonClassName } from "~/components/ui/button";
import { FileText, History } from "~/components/ui/icons";
import { formatFileSize } from "~/domain/format";
import { formatDate, type Report } from "~/domain/purchase";

import { DownloadButton } from "./download-button";
import { FileIcon } from "./file-icon";

/**
 * Reports of one service: title, date, size, description and Download. Staff pages pass
 * `manageBase` (the customer's page): each report links to its versions, replace and delete.
 */
export function ReportList({ reports, empty, manageBase }: { reports: Report[]; empty: string; manageBase?: string }) {
  if (reports.length === 0) {
    return (
      <p className="flex items-center gap-3 rounded-xl border border-dashed border-slate-300 bg-slate-50 px-4 py-6 text-sm text-slate-600">
        <FileText className="size-5 text-slate-500" aria-hidden="true" />
        {empty}
      </p>
    );
  }
  return (
    <ul className="divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white">
      {reports.map((report) => (
        <li key={report.id} className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center">
          <FileIcon mimeType={report.mimeType} className="size-10" />
          <div className="min-w-0 flex-1">
            <h4 className="font-semibold break-words text-slate-950">{report.title}</h4>
            <p className="text-sm text-slate-600">
              <time dateTime={report.createdAt}>{formatDate(report.createdAt)}</time> · {formatFileSize(report.fileSize)}
            </p>
            {report.description ? <p className="mt-1 text-sm break-words text-slate-700">{report.description}</p> : null}
          </div>
          <div className="flex flex-wrap gap-2">
            <DownloadButton reportId={report.id} title={report.title} />
            {manageBase ? (
              <Link to={`${manageBase}/reports/${report.id}`} className={buttonClassName({ variant: "ghost", size: "sm" })}>
                <History className="size-4" aria-hidden="true" />
                Versions<span className="sr-only"> of {report.title}</span>
              </Link>
            ) : null}
          </div>
        </li>
      ))}
    </ul>
  );
}
