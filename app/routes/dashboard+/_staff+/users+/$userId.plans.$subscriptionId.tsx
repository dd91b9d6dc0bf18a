import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useNavigate, useSearchParams } from "@remix-run/react";
import { Upload } from "lucide-react";

import { PlanCard } from "~/components/billing/plan-card";
import { PlanReports } from "~/components/billing/plan-reports";
import { UploadReportModal } from "~/components/dashboard/upload-modal";
import { buttonClassName } from "~/components/ui/button";
import { formatPeriod, reportPeriod } from "~/domain/billing";
import { listPlanReports, uploadPlanReport } from "~/models/plan-reports.server";
import { getSubscriptionFor, toSubscription } from "~/models/subscriptions.server";
import { HttpError } from "~/utils/http.server";
import { loadCustomer, pageNotFound } from "~/web/guards.server";
import { redirectWithToast } from "~/web/toast.server";

/**
 * /dashboard/users/:userId/plans/:subscriptionId (staff): one customer's plan and its reports by
 * month, with Upload Report for the current month (a modal with JavaScript, a plain multipart form
 * posting here without it).
 */
async function loadPlan(request: Request, params: LoaderFunctionArgs["params"]) {
  const { staff, customer } = await loadCustomer(request, params.userId);
  const row = await getSubscriptionFor(staff, params.subscriptionId ?? "").catch((error: unknown) => {
    if (error instanceof HttpError && error.status === 404) throw pageNotFound();
    throw error;
  });
  if (row.userId !== customer.id) throw pageNotFound();
  return { staff, customer, row };
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { customer, row } = await loadPlan(request, params);
  return { customerId: customer.id, subscription: await toSubscription(row), reports: await listPlanReports(row.id), period: reportPeriod() };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { staff, customer, row } = await loadPlan(request, params);
  try {
    await uploadPlanReport(staff, row.id, request);
  } catch (error) {
    if (error instanceof HttpError) return data({ uploadError: error.message }, { status: error.status });
    throw error;
  }
  return redirectWithToast(`/dashboard/users/${customer.id}/plans/${row.id}`, { type: "success", message: "Report uploaded successfully!" });
}

export default function StaffPlan() {
  const { customerId, subscription, reports, period } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const page = `/dashboard/users/${customerId}/plans/${subscription.id}`;
  const live = subscription.status !== "canceled" && subscription.status !== "incomplete";
  return (
    <section aria-label="Plan reports" className="space-y-4">
      <PlanCard
        subscription={subscription}
        headingLevel={2}
        actions={
          live ? (
            <Link to={`${page}?upload=1`} preventScrollReset className={buttonClassName({ size: "sm" })}>
              <Upload className="size-4" aria-hidden="true" />
              Upload Report
              <span className="sr-only">for {formatPeriod(period)}</span>
            </Link>
          ) : null
        }
      />
      <PlanReports reports={reports} empty="No reports uploaded for this plan yet." manageBase={`/dashboard/users/${customerId}`} />
      {live && params.get("upload") ? (
        <UploadReportModal
          serviceId=""
          serviceName={`${subscription.plan.name}, ${formatPeriod(period)}`}
          userId={customerId}
          purchaseId=""
          uploadUrl={`/api/subscriptions/${subscription.id}/reports`}
          action={`${page}?upload=1`}
          closeTo={page}
          serverError={actionData?.uploadError ?? null}
          onClose={() => navigate(page, { preventScrollReset: true })}
          onUploaded={() => navigate(page, { preventScrollReset: true })}
        />
      ) : null}
    </section>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.subscription.plan.name ?? "Plan"} — BrandLift dashboard` }];
