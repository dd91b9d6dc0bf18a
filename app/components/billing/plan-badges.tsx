import type { Subscription } from "~/domain/billing";

import { PlanStatusBadge } from "./plan-card";

/** A customer's plans in one line for staff lists: "VIP TREATMENT · Active". */
export function PlanBadges({ plans }: { plans: Subscription[] }) {
  return (
    <ul className="mt-1 flex flex-wrap gap-2" aria-label="Plans">
      {plans.map((plan) => (
        <li key={plan.id} className="flex items-center gap-1.5 text-xs font-semibold text-slate-700">
          {plan.plan.name}
          <PlanStatusBadge subscription={plan} />
        </li>
      ))}
    </ul>
  );
}
