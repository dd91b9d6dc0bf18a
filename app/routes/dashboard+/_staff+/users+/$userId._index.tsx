import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useActionData, useFetcher, useLoaderData, useNavigate, useSearchParams } from "@remix-run/react";

import { ReportList } from "~/components/dashboard/report-list";
import { UploadReportModal } from "~/components/dashboard/upload-modal";
import { Badge, StatusBadge } from "~/components/ui/badge";
import { Button, buttonClassName } from "~/components/ui/button";
import { EmptyState } from "~/components/ui/empty-state";
import { ShoppingBag, Upload } from "~/components/ui/icons";
import { SectionBoundary } from "~/components/ui/section-error";
import { formatCents } from "~/domain/format";
import { isDeletedAccount } from "~/domain/own-data";
import { formatDate, isWorkStatus, WORK_STATUSES, type WorkStatus } from "~/domain/purchase";
import { z } from "~/domain/zod";
import { readCustomerWork } from "~/models/customer-profile.server";
import { findPurchase, setPurchaseStatus, toPurchase } from "~/models/purchases.server";
import { toReport, UploadFieldsError, uploadReport } from "~/models/reports.server";
import { HttpError } from "~/utils/http.server";
import { readForm } from "~/web/body-limit.server";
import { loadCustomer } from "~/web/guards.server";
import { redirectWithToast } from "~/web/toast.server";

const isOpen = (status: string) => status === "pending" || status === "in_progress";

// A work status change (decision 305); whatever is wrong with it is said in the same words, once, above the list.
const STATUS_REFUSED = "Please choose in progress or completed.";
const statusForm = z.object({
  intent: z.literal("status", { error: STATUS_REFUSED }),
  purchaseId: z.string({ error: STATUS_REFUSED }).max(100, STATUS_REFUSED),
  status: z.enum(WORK_STATUSES, { error: STATUS_REFUSED }),
});

/** A deleted customer's page changes nothing: their open work can no longer be delivered (decision 280). */
const DELETED_CUSTOMER = "This customer deleted their account: nothing more is delivered to them.";

/**
 * The Reports tab of a customer (staff): each purchase, its reports, Upload Report and its status.
 * A deleted customer's purchases are shown as they ended, without uploads or status changes.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { customer } = await loadCustomer(request, params.userId);
  const gone = isDeletedAccount(customer);
  // One statement (decision 329).
  const { purchases, reports, deleted, plans } = await readCustomerWork(customer.id);
  const hasPlan = plans.length > 0;
  return {
    userId: customer.id,
    // The books keep the purchase as it was; to staff, work nobody can receive any more reads as cancelled.
    // What each purchase's card shows, nothing more (the page carries its data to the browser).
    purchases: purchases.map(toPurchase).map((p) => ({
      id: p.id,
      amountCents: p.amountCents,
      currency: p.currency,
      quantity: p.quantity,
      createdAt: p.createdAt,
      status: gone && isOpen(p.status) ? ("cancelled" as const) : p.status,
      service: { id: p.service.id, name: p.service.name },
    })),
    gone,
    reports: reports.map(toReport),
    deleted: deleted.map((row) => ({ id: row.id, title: row.title, deletedAt: row.deletedAt!.toISOString() })),
    hasPlan,
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { staff, customer } = await loadCustomer(request, params.userId);
  const page = `/dashboard/users/${customer.id}`;
  // The upload form without JavaScript: multipart, with the purchase in the URL (?upload=); the file is streamed to storage, not read as a form.
  if ((request.headers.get("Content-Type") ?? "").startsWith("multipart/form-data")) {
    if (isDeletedAccount(customer)) return data({ uploadError: DELETED_CUSTOMER }, { status: 409 });
    const purchase = await findPurchase(new URL(request.url).searchParams.get("upload") ?? "");
    if (!purchase || purchase.userId !== customer.id) return data({ uploadError: "Purchase not found." }, { status: 404 });
    try {
      await uploadReport(staff, purchase.serviceId, request);
    } catch (error) {
      if (error instanceof UploadFieldsError) return data({ uploadError: null, uploadFields: error.fields }, { status: error.status });
      if (error instanceof HttpError) return data({ uploadError: error.message }, { status: error.status });
      throw error;
    }
    return redirectWithToast(page, { type: "success", message: "Report uploaded successfully!" });
  }
  const submission = parseWithZod(await readForm(request), { schema: statusForm });
  const refused = (message: string, status: number) => data({ result: submission.reply({ formErrors: [message] }) }, { status });
  if (isDeletedAccount(customer)) return refused(DELETED_CUSTOMER, 409);
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const purchase = await findPurchase(submission.value.purchaseId);
  if (!purchase || purchase.userId !== customer.id) return refused("Purchase not found.", 404);
  try {
    const updated = await setPurchaseStatus(staff, purchase.id, submission.value.status);
    const label = updated.status === "completed" ? "completed" : "in progress";
    return redirectWithToast(page, { type: "success", message: `${updated.serviceName} marked ${label}.` });
  } catch (error) {
    if (error instanceof HttpError) return refused(error.message, error.status);
    throw error;
  }
}

type UserReportsData = ReturnType<typeof useLoaderData<typeof loader>>;

export default function UserReports() {
  return <UserReportsView {...useLoaderData<typeof loader>()} />;
}

/** The spec: "Failed to load user purchases"; the customer's header, tabs and the sidebar stay. */
export function ErrorBoundary() {
  return <SectionBoundary<UserReportsData> index message="Failed to load user purchases" render={(data) => <UserReportsView {...data} />} />;
}

function UserReportsView({ userId, purchases, reports, deleted, hasPlan, gone }: UserReportsData) {
  const actionData = useActionData<typeof action>();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const page = `/dashboard/users/${userId}`;
  const uploading = gone ? undefined : purchases.find((p) => p.id === params.get("upload") && isWorkStatus(p.status));
  // The status buttons' one answer (without JavaScript), said once above the list.
  const statusError = actionData && "result" in actionData ? [...new Set(Object.values(actionData.result.error ?? {}).flat())].join(" ") : null;

  if (purchases.length === 0) {
    // A subscriber's reports are under their plan (above); only a customer without either is "not purchased".
    if (hasPlan)
      return <EmptyState icon={ShoppingBag} title="No one-off services" text="This customer is on a plan: open it above to see and upload its reports." />;
    return <EmptyState icon={ShoppingBag} title="No purchases" text="This user has not purchased any services yet." />;
  }
  return (
    <section aria-label="Reports" className="space-y-4">
      {statusError ? (
        <p role="alert" className="text-sm font-medium text-red-700">
          {statusError}
        </p>
      ) : null}
      <ul className="space-y-4">
        {purchases.map((purchase) => {
          const paid = !gone && isWorkStatus(purchase.status);
          return (
            <li
              key={purchase.id}
              className="space-y-4 rounded-card border border-slate-200 bg-white p-5 shadow-card"
              aria-labelledby={`purchase-${purchase.id}`}
            >
              <div className="flex flex-wrap items-start justify-between gap-4">
                <div className="min-w-0">
                  <h3 id={`purchase-${purchase.id}`} className="text-lg font-semibold text-slate-950">
                    {purchase.service.name}
                  </h3>
                  <p className="text-sm text-slate-600">
                    {formatCents(purchase.amountCents, purchase.currency)} · purchased{" "}
                    <time dateTime={purchase.createdAt}>{formatDate(purchase.createdAt)}</time>
                  </p>
                  <div className="mt-2 flex flex-wrap gap-2">
                    <StatusBadge status={purchase.status} />
                    {purchase.quantity > 1 ? <Badge tone="brand">Qty {purchase.quantity}</Badge> : null}
                  </div>
                </div>
                {paid ? (
                  <div className="flex flex-wrap gap-2">
                    <StatusToggle purchaseId={purchase.id} status={purchase.status as WorkStatus} serviceName={purchase.service.name} />
                    <Link to={`${page}?upload=${purchase.id}`} preventScrollReset className={buttonClassName({ size: "sm" })}>
                      <Upload className="size-4" aria-hidden="true" />
                      Upload Report
                      <span className="sr-only">for {purchase.service.name}</span>
                    </Link>
                  </div>
                ) : null}
              </div>
              <ReportList
                reports={reports.filter((r) => r.service.id === purchase.service.id)}
                empty="No reports uploaded for this service yet."
                manageBase={gone ? undefined : page}
              />
            </li>
          );
        })}
      </ul>
      {deleted.length > 0 ? (
        <section aria-labelledby="deleted-reports" className="space-y-2 rounded-card border border-amber-200 bg-amber-50/60 p-5">
          <h3 id="deleted-reports" className="font-semibold text-slate-950">
            Deleted reports
          </h3>
          <p className="text-sm text-slate-700">The customer no longer sees these; the team can open them for 30 days after deletion, then they are purged.</p>
          <ul className="space-y-1 text-sm">
            {deleted.map((report) => (
              <li key={report.id}>
                <Link to={`${page}/reports/${report.id}`} className="font-semibold break-words text-brand-700 underline-offset-4 hover:underline">
                  {report.title}
                </Link>{" "}
                <span className="text-slate-600">
                  · deleted <time dateTime={report.deletedAt}>{formatDate(report.deletedAt)}</time>
                </span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {uploading ? (
        <UploadReportModal
          key={uploading.id}
          serviceId={uploading.service.id}
          serviceName={uploading.service.name}
          userId={userId}
          purchaseId={uploading.id}
          action={`${page}?index&upload=${uploading.id}`}
          closeTo={page}
          serverError={actionData && "uploadError" in actionData ? actionData.uploadError : null}
          serverFields={actionData && "uploadFields" in actionData ? actionData.uploadFields : undefined}
          onClose={() => navigate(page, { preventScrollReset: true })}
          onUploaded={() => navigate(page, { preventScrollReset: true })}
        />
      ) : null}
    </section>
  );
}

/** Staff move paid work between in progress and completed; a plain form without JavaScript. */
function StatusToggle({ purchaseId, status, serviceName }: { purchaseId: string; status: WorkStatus; serviceName: string }) {
  const fetcher = useFetcher();
  const next = status === "completed" ? "in_progress" : "completed";
  return (
    <fetcher.Form method="post">
      <input type="hidden" name="intent" value="status" />
      <input type="hidden" name="purchaseId" value={purchaseId} />
      <input type="hidden" name="status" value={next} />
      <Button type="submit" variant="outline" size="sm" loading={fetcher.state !== "idle"}>
        {next === "completed" ? "Mark as completed" : "Move back to in progress"}
        <span className="sr-only">: {serviceName}</span>
      </Button>
    </fetcher.Form>
  );
}
