import { Link } from "@remix-run/react";

import { BriefBadge } from "~/components/brief/briefs-needed";
import { ArrowRight } from "~/components/ui/icons";
import type { Subscription } from "~/domain/billing";
import { formatCents } from "~/domain/format";

import { PlanStatusBadge, renewalText } from "./plan-card";

/** Staff, on a customer's page: each of their plans, with a link to its reports. */
export function StaffPlanList({ customerId, plans }: { customerId: string; plans: Subscription[] }) {
  return (
    <section aria-labelledby="customer-plans-heading" className="rounded-card border border-brand-200 bg-white p-5 shadow-card">
      <h3 id="customer-plans-heading" className="text-lg font-semibold text-slate-950">
        Plans
      </h3>
      <ul className="mt-3 divide-y divide-slate-200">
        {plans.map((plan) => (
          <li key={plan.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
            <div className="min-w-0">
              <p className="font-semibold text-slate-950">
                {plan.plan.name} · {formatCents(plan.priceCents, plan.currency)}/mo
              </p>
              <p className="mt-1 flex flex-wrap items-center gap-2 text-sm text-slate-600">
                <PlanStatusBadge subscription={plan} />
                <BriefBadge brief={plan.brief} />
                {renewalText(plan)}
              </p>
            </div>
            <Link to={`/dashboard/subscriptions/${plan.id}`} className="row-link">
              Payments
              <span className="sr-only"> of {plan.plan.name}</span>
            </Link>
            <Link to={`/dashboard/users/${customerId}/plans/${plan.id}`} className="row-link">
              Plan reports
              <ArrowRight className="size-4" aria-hidden="true" />
              <span className="sr-only">of {plan.plan.name}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
