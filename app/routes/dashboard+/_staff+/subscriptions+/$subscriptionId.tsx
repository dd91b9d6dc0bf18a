import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";

import { PlanCard } from "~/components/billing/plan-card";
import { BackLink } from "~/components/dashboard/back-link";
import { OrderStatusBadge } from "~/components/dashboard/order-status-badge";
import { Button } from "~/components/ui/button";
import { ConfirmStep } from "~/components/ui/confirm-step";
import { SectionBoundary } from "~/components/ui/section-error";
import { formatCents } from "~/domain/format";
import { PLAN_CHARGE_LABELS } from "~/domain/order";
import { formatDate } from "~/domain/purchase";
import { staffPlanChangeSchema } from "~/domain/schemas/subscriptions";
import { changeSubscriptionByStaff, getStaffSubscription, type StaffPlanChange } from "~/models/subscriptions-staff.server";
import { HttpError } from "~/utils/http.server";
import { requireTeam } from "~/web/auth.server";
import { readForm } from "~/web/body-limit.server";
import { pageNotFound } from "~/web/guards.server";
import { redirectWithToast } from "~/web/toast.server";

/**
 * /dashboard/subscriptions/:subscriptionId (staff, decision 175): one plan, its customer, and its
 * payments (the sign-up and every renewal; each opens its order page, where it is refunded).
 * Cancel at period end, cancel now and resume each answer first with a confirmation step
 * (decision 176); only the confirmed post changes the plan.
 */
async function load(request: Request, id: string | undefined) {
  const staff = await requireTeam(request);
  try {
    return { staff, detail: await getStaffSubscription(staff, id ?? "") };
  } catch (error) {
    if (error instanceof HttpError && error.status === 404) throw pageNotFound();
    throw error;
  }
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  return (await load(request, params.subscriptionId)).detail;
}

const DONE: Record<StaffPlanChange, string> = {
  cancel_at_period_end: "The plan will end at the end of its period.",
  cancel_now: "The plan has ended.",
  resume: "The plan will renew as usual.",
};

export async function action({ request, params }: ActionFunctionArgs) {
  const { staff, detail } = await load(request, params.subscriptionId);
  const submission = parseWithZod(await readForm(request), { schema: staffPlanChangeSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const { intent, confirm } = submission.value;
  if (!confirm) return { confirm: intent };
  try {
    await changeSubscriptionByStaff(staff, detail.subscription.id, intent);
  } catch (error) {
    if (error instanceof HttpError) return data({ result: submission.reply({ formErrors: [error.message] }) }, { status: error.status });
    throw error;
  }
  return redirectWithToast(`/dashboard/subscriptions/${detail.subscription.id}`, { type: "success", message: DONE[intent] });
}

type SubscriptionData = ReturnType<typeof useLoaderData<typeof loader>>;

export default function SubscriptionPage() {
  return <SubscriptionView {...useLoaderData<typeof loader>()} />;
}

function SubscriptionView({ subscription, customer, stripeSubscriptionId, payments }: SubscriptionData) {
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const page = `/dashboard/subscriptions/${subscription.id}`;
  const live = subscription.status === "active" || subscription.status === "past_due";
  const who = customer?.name ?? "the customer";
  const until = subscription.currentPeriodEnd ? formatDate(subscription.currentPeriodEnd) : "the end of the period";
  const steps: Record<StaffPlanChange, { title: string; text: string; label: string }> = {
    cancel_at_period_end: {
      title: `Cancel ${subscription.plan.name} at the end of the period?`,
      text: `${who} keeps the plan until ${until}; it does not renew and nothing more is charged. Nothing is refunded.`,
      label: "Cancel at period end",
    },
    cancel_now: {
      title: `End ${subscription.plan.name} now?`,
      text: `${who} loses the plan today, before ${until}. Nothing more is charged and nothing is refunded: refund a payment below if money is owed.`,
      label: "End the plan now",
    },
    resume: {
      title: `Keep ${subscription.plan.name} running?`,
      text: `The plan renews on ${until} and ${formatCents(subscription.priceCents, subscription.currency)} is charged every month again.`,
      label: "Resume the plan",
    },
  };
  const confirm = actionData && "confirm" in actionData ? actionData.confirm : null;
  // The change's buttons are small forms: what was refused is said once, above the steps.
  const refused =
    actionData && "result" in actionData
      ? Object.values(actionData.result.error ?? {})
          .flat()
          .join(" ")
      : "";
  return (
    <section aria-labelledby={`plan-${subscription.id}`} className="space-y-6">
      <BackLink to="/dashboard/subscriptions">Back to subscriptions</BackLink>
      <PlanCard
        subscription={subscription}
        headingLevel={2}
        showFeatures={false}
        actions={
          live && !confirm ? (
            <Form method="post" className="flex flex-wrap gap-2">
              {subscription.cancelAtPeriodEnd ? (
                <Button type="submit" name="intent" value="resume" variant="outline" size="sm">
                  Resume the plan
                </Button>
              ) : (
                <Button type="submit" name="intent" value="cancel_at_period_end" variant="outline" size="sm">
                  Cancel at period end…
                </Button>
              )}
              <Button
                type="submit"
                name="intent"
                value="cancel_now"
                variant="outline"
                size="sm"
                className="text-red-800 hover:border-red-700 hover:text-red-900"
              >
                End the plan now…
              </Button>
            </Form>
          ) : null
        }
      />
      {refused ? (
        <p role="alert" className="text-sm font-semibold text-red-700">
          {refused}
        </p>
      ) : null}
      {confirm ? (
        <ConfirmStep
          title={steps[confirm].title}
          fields={{ intent: confirm }}
          confirmLabel={steps[confirm].label}
          cancelTo={page}
          cancelLabel="Go back"
          tone={confirm === "resume" ? "primary" : "danger"}
          busy={navigation.state === "submitting"}
        >
          <p>{steps[confirm].text}</p>
        </ConfirmStep>
      ) : null}
      <dl className="grid gap-3 rounded-card border border-slate-200 bg-white p-5 text-sm shadow-card sm:grid-cols-3">
        <div>
          <dt className="text-xs font-semibold tracking-wide text-slate-500 uppercase">Customer</dt>
          <dd className="break-words">
            {customer ? (
              <Link to={`/dashboard/users/${customer._id}`} className="font-semibold text-brand-700 hover:underline">
                {customer.name}
              </Link>
            ) : (
              "No account"
            )}
            {customer ? <span className="block break-all text-slate-600">{customer.email}</span> : null}
          </dd>
        </div>
        <div>
          <dt className="text-xs font-semibold tracking-wide text-slate-500 uppercase">Started</dt>
          <dd>{formatDate(subscription.createdAt)}</dd>
        </div>
        <div>
          <dt className="text-xs font-semibold tracking-wide text-slate-500 uppercase">Stripe subscription</dt>
          <dd className="font-mono text-xs break-all">{stripeSubscriptionId ?? "—"}</dd>
        </div>
      </dl>
      <section aria-labelledby="payments-heading" className="space-y-3">
        <h3 id="payments-heading" className="text-lg font-bold text-slate-950">
          Payments
        </h3>
        {payments.length === 0 ? (
          <p className="text-sm text-slate-600">No payments yet.</p>
        ) : (
          <ul aria-label="Payments" className="divide-y divide-slate-200 rounded-card border border-slate-200 bg-white shadow-card">
            {payments.map((payment) => (
              <li key={payment.id} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 px-4 py-3 text-sm" data-testid="plan-payment">
                <div className="min-w-0">
                  <p className="font-semibold text-slate-950">{PLAN_CHARGE_LABELS[payment.charge ?? "sign-up"]}</p>
                  <p className="text-slate-600">{formatDate(payment.paidAt ?? payment.createdAt)}</p>
                </div>
                <p className="ml-auto text-right">
                  <span className="font-semibold text-slate-950">{formatCents(payment.amountCents, payment.currency)}</span>
                  {payment.refundedCents > 0 ? (
                    <span className="block text-xs text-red-700">−{formatCents(payment.refundedCents, payment.currency)} refunded</span>
                  ) : null}
                </p>
                <OrderStatusBadge status={payment.status} />
                <Link to={`/dashboard/orders/${payment.id}`} className="inline-flex min-h-11 items-center font-semibold text-brand-700 hover:underline">
                  {payment.status === "paid" || payment.status === "partially_refunded" ? "Open or refund" : "Open"}
                  <span className="sr-only">
                    {" "}
                    the {PLAN_CHARGE_LABELS[payment.charge ?? "sign-up"].toLowerCase()} of {formatDate(payment.paidAt ?? payment.createdAt)}
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </section>
    </section>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.subscription.plan.name ?? "Subscription"} — BrandLift dashboard` }];

export function ErrorBoundary() {
  return <SectionBoundary<SubscriptionData> message="Failed to load this subscription" render={(data) => <SubscriptionView {...data} />} />;
}
