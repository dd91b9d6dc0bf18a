import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useSearchParams } from "@remix-run/react";
import { Filter, Repeat } from "lucide-react";

import { PlanStatusBadge, renewalText } from "~/components/billing/plan-card";
import { ListFilterStatus } from "~/components/dashboard/list-filter-status";
import { PageHeader } from "~/components/dashboard/page-header";
import { Button } from "~/components/ui/button";
import { EmptyState } from "~/components/ui/empty-state";
import { Field, Input, Select } from "~/components/ui/input";
import { Pager } from "~/components/ui/pager";
import { SectionBoundary } from "~/components/ui/section-error";
import { countOf, formatCents } from "~/domain/format";
import { STAFF_PLAN_STATUS_LABELS, STAFF_PLAN_STATUSES, subscriptionListQuerySchema } from "~/domain/schemas/subscriptions";
import { listStaffSubscriptions } from "~/models/subscriptions-staff.server";
import { requireTeam } from "~/web/auth.server";

/**
 * /dashboard/subscriptions?status=&search=&page= (staff, decision 175): every plan, newest first, with
 * its customer, price, status, next renewal and what its payments brought; each opens its own page.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireTeam(request);
  const raw = Object.fromEntries([...new URL(request.url).searchParams].filter(([, value]) => value !== ""));
  const parsed = subscriptionListQuerySchema.safeParse(raw);
  const query = parsed.success ? parsed.data : subscriptionListQuerySchema.parse({});
  const list = await listStaffSubscriptions(query);
  return {
    ...list,
    filter: { status: query.status ?? "", search: query.search ?? "" },
    filterError: parsed.success ? null : (parsed.error.issues[0]?.message ?? "Invalid filter."),
  };
}

type SubscriptionsData = ReturnType<typeof useLoaderData<typeof loader>>;

export default function SubscriptionsTab() {
  return <SubscriptionsView {...useLoaderData<typeof loader>()} />;
}

function SubscriptionsView({ subscriptions, total, page, pages, filter, filterError }: SubscriptionsData) {
  const [params] = useSearchParams();
  return (
    <section aria-labelledby="subscriptions-heading" className="space-y-4">
      <PageHeader
        id="subscriptions-heading"
        title="Subscriptions"
        description="Every monthly plan: its customer, its payments, and cancelling or refunding them."
      />
      <Form
        method="get"
        className="flex flex-wrap items-end gap-3 rounded-card border border-slate-200 bg-white p-4 shadow-card"
        aria-label="Filter subscriptions"
      >
        <Field id="subscription-search" label="Search by customer name or e-mail" className="min-w-0 flex-1 basis-56">
          <Input id="subscription-search" type="search" name="search" defaultValue={filter.search} key={filter.search} />
        </Field>
        <Field id="subscription-status" label="Status" className="basis-48">
          <Select id="subscription-status" name="status" defaultValue={filter.status} key={filter.status}>
            <option value="">All statuses</option>
            {STAFF_PLAN_STATUSES.map((status) => (
              <option key={status} value={status}>
                {STAFF_PLAN_STATUS_LABELS[status]}
              </option>
            ))}
          </Select>
        </Field>
        <Button type="submit" variant="outline">
          <Filter className="size-4" aria-hidden="true" />
          Apply
        </Button>
      </Form>
      <ListFilterStatus error={filterError} count={countOf(total, "subscription")} />
      {subscriptions.length === 0 ? (
        <EmptyState
          icon={Repeat}
          title={filter.status || filter.search ? "No subscriptions match this filter" : "No subscriptions yet"}
          text={filter.status || filter.search ? "Try another status or search." : "Plans appear here once a customer pays for one."}
        />
      ) : (
        <ul aria-label="Subscriptions" className="divide-y divide-slate-200 rounded-card border border-slate-200 bg-white shadow-card">
          {subscriptions.map(({ subscription, customer, paidCents, payments }) => (
            <li key={subscription.id} className="grid gap-2 px-4 py-3 text-sm sm:grid-cols-[1.4fr_1fr_1fr_auto] sm:items-center sm:gap-4">
              <div className="min-w-0">
                <p className="font-semibold break-words text-slate-950">{customer?.name ?? "No account"}</p>
                <p className="break-all text-slate-600">{customer?.email ?? ""}</p>
              </div>
              <div>
                <p className="font-semibold text-slate-950">
                  {subscription.plan.name} · {formatCents(subscription.priceCents, subscription.currency)}/mo
                </p>
                <p className="mt-1 flex flex-wrap items-center gap-2 text-slate-600">
                  <PlanStatusBadge subscription={subscription} />
                  {renewalText(subscription)}
                </p>
              </div>
              <p className="text-slate-700">
                {formatCents(paidCents, subscription.currency)} paid{" "}
                <span className="text-slate-500">({payments === 1 ? "1 payment" : `${payments} payments`})</span>
              </p>
              <Link
                to={`/dashboard/subscriptions/${subscription.id}`}
                className="inline-flex min-h-11 items-center font-semibold text-brand-700 hover:underline sm:justify-end"
              >
                View<span className="sr-only"> the plan of {customer?.name ?? "this customer"}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
      <Pager page={page} pages={pages} path="/dashboard/subscriptions" keep={Object.fromEntries(params)} />
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: "Subscriptions — BrandLift dashboard" }];

export function ErrorBoundary() {
  return <SectionBoundary<SubscriptionsData> index message="Failed to load subscriptions" render={(data) => <SubscriptionsView {...data} />} />;
}
