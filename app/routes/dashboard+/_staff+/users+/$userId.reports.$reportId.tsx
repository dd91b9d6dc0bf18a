import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Download, History, Trash2, UploadCloud } from "lucide-react";

import { BackLink } from "~/components/dashboard/back-link";
import { FileIcon } from "~/components/dashboard/file-icon";
import { DashboardRouteError } from "~/components/dashboard/route-error";
import { Badge } from "~/components/ui/badge";
import { Button, buttonClassName } from "~/components/ui/button";
import { ConfirmStep } from "~/components/ui/confirm-step";
import { Field, Input, Textarea } from "~/components/ui/input";
import { formatFileSize } from "~/domain/format";
import { formatDate } from "~/domain/purchase";
import { REPORT_ACCEPT, REPORT_NOTE_MAX, REPORT_PURGE_AFTER_MS } from "~/domain/report";
import { z } from "~/domain/zod";
import { deleteReport, listReportVersions, replaceReport } from "~/models/report-versions.server";
import { findReport } from "~/models/reports.server";
import { HttpError } from "~/utils/http.server";
import { readForm } from "~/web/body-limit.server";
import { loadCustomer, pageNotFound } from "~/web/guards.server";
import { redirectWithToast } from "~/web/toast.server";

/**
 * /dashboard/users/:userId/reports/:reportId (staff): one report, every version with its note
 * and download, a form to replace it with a new version (with a note), and Delete with a
 * confirmation step. Plain forms (multipart for the file): no JavaScript needed.
 */
async function loadReport(request: Request, params: LoaderFunctionArgs["params"]) {
  const { staff, customer } = await loadCustomer(request, params.userId);
  const report = await findReport(params.reportId ?? "");
  if (!report || report.userId !== customer.id) throw pageNotFound();
  return { staff, customer, report };
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { customer, report } = await loadReport(request, params);
  const versions = await listReportVersions(report);
  return {
    customer: { id: customer.id, name: customer.name },
    report: {
      id: report.id,
      title: report.title,
      description: report.description,
      serviceName: report.serviceName,
      createdAt: report.createdAt.toISOString(),
      deletedAt: report.deletedAt?.toISOString() ?? null,
      purgeOn: report.deletedAt ? new Date(report.deletedAt.getTime() + REPORT_PURGE_AFTER_MS).toISOString() : null,
    },
    versions: versions.map((version) => ({ ...version, uploadedAt: version.uploadedAt.toISOString() })),
  };
}

// The form's one intent besides the file (a multipart post): deleting the report.
const deleteForm = z.object({ intent: z.literal("delete"), confirm: z.string().max(10).optional() });

export async function action({ request, params }: ActionFunctionArgs) {
  const { staff, customer, report } = await loadReport(request, params);
  const here = `/dashboard/users/${customer.id}/reports/${report.id}`;
  if ((request.headers.get("Content-Type") ?? "").startsWith("multipart/form-data")) {
    try {
      const replaced = await replaceReport(staff, report.id, request);
      return redirectWithToast(here, { type: "success", message: `Version ${replaced.version} uploaded: the customer now gets ${replaced.fileName}.` });
    } catch (error) {
      if (error instanceof HttpError) return data({ replaceError: error.message, confirmDelete: false }, { status: error.status, headers: error.headers });
      throw error;
    }
  }
  const submission = parseWithZod(await readForm(request), { schema: deleteForm });
  if (submission.status !== "success") return data({ replaceError: null, confirmDelete: false }, { status: 400 });
  // The first post asks to confirm; the confirmation deletes.
  if (submission.value.confirm !== "yes") return { replaceError: null, confirmDelete: true };
  try {
    await deleteReport(staff, report.id);
  } catch (error) {
    if (error instanceof HttpError && error.status === 404) throw pageNotFound();
    throw error;
  }
  return redirectWithToast(`/dashboard/users/${customer.id}`, { type: "success", message: `“${report.title}” deleted: the customer no longer sees it.` });
}

export default function ReportVersionsPage() {
  const { customer, report, versions } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const uploading = busy && navigation.formEncType === "multipart/form-data";
  const here = `/dashboard/users/${customer.id}/reports/${report.id}`;
  return (
    <section aria-labelledby="report-heading" className="space-y-6">
      <BackLink to={`/dashboard/users/${customer.id}`}>{`Back to ${customer.name}’s reports`}</BackLink>
      <header className="space-y-1">
        <h3 id="report-heading" className="text-xl font-bold break-words text-slate-950">
          {report.title}
        </h3>
        <p className="text-sm text-slate-600">
          {report.serviceName} · first uploaded <time dateTime={report.createdAt}>{formatDate(report.createdAt)}</time>
        </p>
        {report.description ? <p className="text-sm break-words text-slate-700">{report.description}</p> : null}
      </header>
      {report.deletedAt ? (
        <p role="status" className="rounded-card border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900">
          Deleted on <time dateTime={report.deletedAt}>{formatDate(report.deletedAt)}</time>: {customer.name} no longer sees it. Staff can still download it
          until <time dateTime={report.purgeOn!}>{formatDate(report.purgeOn!)}</time>, when it is purged with every version’s file.
        </p>
      ) : null}

      <section aria-labelledby="versions-heading" className="space-y-3">
        <h4 id="versions-heading" className="flex items-center gap-2 text-lg font-semibold text-slate-950">
          <History className="size-5 text-slate-500" aria-hidden="true" />
          Versions
        </h4>
        <ol aria-label="Versions" className="divide-y divide-slate-200 rounded-card border border-slate-200 bg-white shadow-card">
          {versions.map((version) => (
            <li key={version.version} data-testid="report-version" className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center">
              <FileIcon mimeType={version.mimeType} className="size-10 shrink-0" />
              <div className="min-w-0 flex-1">
                <p className="flex flex-wrap items-center gap-2 font-semibold text-slate-950">
                  Version {version.version}
                  {version.current ? (
                    <Badge tone={report.deletedAt ? "warning" : "success"}>{report.deletedAt ? "deleted" : "what the customer gets"}</Badge>
                  ) : null}
                </p>
                <p className="text-sm break-all text-slate-700">
                  {version.fileName} · {formatFileSize(version.fileSize)} · <time dateTime={version.uploadedAt}>{formatDate(version.uploadedAt)}</time>
                </p>
                {version.note ? <p className="mt-1 text-sm break-words whitespace-pre-wrap text-slate-700">Note: {version.note}</p> : null}
              </div>
              <a
                href={version.id ? `/files/reports/${report.id}/versions/${version.id}` : `/files/reports/${report.id}`}
                download
                className={buttonClassName({ variant: "outline", size: "sm" })}
              >
                <Download className="size-4" aria-hidden="true" />
                Download<span className="sr-only"> version {version.version}</span>
              </a>
            </li>
          ))}
        </ol>
      </section>

      {report.deletedAt ? null : (
        <div className="grid grid-cols-[minmax(0,1fr)] gap-6 lg:grid-cols-2">
          <Form
            method="post"
            encType="multipart/form-data"
            aria-labelledby="replace-heading"
            className="space-y-4 self-start rounded-card border border-slate-200 bg-white p-5 shadow-card"
          >
            <h4 id="replace-heading" className="text-lg font-semibold text-slate-950">
              Replace with a new version
            </h4>
            <p className="text-sm text-slate-600">The customer gets the new file at once; earlier versions stay here for the team.</p>
            <Field label="New file" error={reply?.replaceError ?? undefined} hint="PDF, Word or an image, at most 10 MB.">
              {(control) => <Input {...control} type="file" name="file" accept={REPORT_ACCEPT} required />}
            </Field>
            <Field label="Note (optional)" hint="Why it changed, for the team.">
              {(control) => <Textarea {...control} name="note" rows={3} maxLength={REPORT_NOTE_MAX} />}
            </Field>
            <Button type="submit" loading={uploading}>
              <UploadCloud className="size-4" aria-hidden="true" />
              Upload new version
            </Button>
          </Form>
          <div className="space-y-3 self-start">
            {reply?.confirmDelete ? (
              <ConfirmStep title={`Delete “${report.title}”?`} fields={{ intent: "delete" }} confirmLabel="Delete the report" cancelTo={here} busy={busy}>
                <p>{customer.name} stops seeing it at once: it leaves their reports and its download links stop working.</p>
                <p>
                  The team can still download it for 30 days; then it is purged with all{" "}
                  {versions.length === 1 ? "its file" : `${versions.length} versions’ files`}.
                </p>
              </ConfirmStep>
            ) : (
              <Form method="post" className="rounded-card border border-slate-200 bg-white p-5 shadow-card">
                <input type="hidden" name="intent" value="delete" />
                <h4 className="text-lg font-semibold text-slate-950">Delete this report</h4>
                <p className="mt-1 mb-4 text-sm text-slate-600">You will be asked to confirm.</p>
                <Button type="submit" variant="danger" loading={busy && navigation.formData?.get("intent") === "delete"}>
                  <Trash2 className="size-4" aria-hidden="true" />
                  Delete…
                </Button>
              </Form>
            )}
          </div>
        </div>
      )}
    </section>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.report.title ?? "Report"} — BrandLift dashboard` }];

export function ErrorBoundary() {
  return <DashboardRouteError backTo="/dashboard/users" backLabel="Back to users" />;
}
