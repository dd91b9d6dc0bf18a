import { Check } from "lucide-react";
import type { ReactNode } from "react";

import { BriefBadge } from "~/components/brief/briefs-needed";
import { Badge, type BadgeTone } from "~/components/ui/badge";
import { cn } from "~/components/ui/cn";
import { PLAN_STATUS_LABELS, planDisplayStatus, type PlanDisplayStatus, type Subscription, type SubscriptionJson } from "~/domain/billing";
import { formatCents } from "~/domain/format";
import { formatDate } from "~/domain/purchase";

const tones: Record<PlanDisplayStatus, BadgeTone> = {
  active: "success",
  past_due: "danger",
  ending: "warning",
  canceled: "neutral",
  incomplete: "warning",
};

export function PlanStatusBadge({ subscription }: { subscription: Pick<SubscriptionJson, "status" | "cancelAtPeriodEnd"> }) {
  const status = planDisplayStatus(subscription);
  return (
    <Badge tone={tones[status]}>
      <span aria-hidden="true" className="size-1.5 rounded-full bg-current" />
      {PLAN_STATUS_LABELS[status]}
    </Badge>
  );
}

/** "Renews Dec 23, 2026", "Ends Dec 23, 2026", "Ended". */
export function renewalText(subscription: Pick<SubscriptionJson, "status" | "cancelAtPeriodEnd" | "currentPeriodEnd">) {
  if (subscription.status === "canceled") return "Ended";
  if (!subscription.currentPeriodEnd) return null;
  const date = formatDate(subscription.currentPeriodEnd);
  return subscription.cancelAtPeriodEnd ? `Ends ${date}` : `Next renewal ${date}`;
}

/** One plan: name, monthly price, status, next renewal and what it includes; `actions` below. */
export function PlanCard({
  subscription,
  headingLevel = 3,
  showFeatures = true,
  actions,
  pastDueSteps,
  className,
}: {
  subscription: Subscription;
  headingLevel?: 2 | 3;
  showFeatures?: boolean;
  actions?: ReactNode;
  /** What the customer can do about a failed payment, under the past-due notice. */
  pastDueSteps?: ReactNode;
  className?: string;
}) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const renewal = renewalText(subscription);
  return (
    <article
      aria-labelledby={`plan-${subscription.id}`}
      className={cn("flex flex-col gap-4 rounded-card border border-brand-200 bg-white p-5 shadow-card", className)}
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="text-xs font-semibold tracking-wide text-brand-700 uppercase">Monthly plan</p>
          <Heading id={`plan-${subscription.id}`} className="text-lg font-bold text-slate-950">
            {subscription.plan.name}
          </Heading>
          <div className="mt-2 flex flex-wrap items-center gap-2">
            <PlanStatusBadge subscription={subscription} />
            <BriefBadge brief={subscription.brief} />
            {renewal ? <span className="text-sm text-slate-600">{renewal}</span> : null}
          </div>
        </div>
        <p className="text-lg font-bold text-slate-950 tabular-nums">
          {formatCents(subscription.priceCents, subscription.currency)}
          <span className="text-sm font-medium text-slate-600">/mo</span>
        </p>
      </div>
      {subscription.status === "past_due" ? (
        <div role="alert" className="space-y-3 rounded-xl bg-red-50 px-4 py-3 text-sm font-medium text-red-800">
          <p>The last payment did not go through. Update your payment method, then retry the payment to keep your plan.</p>
          {pastDueSteps ? <div className="flex flex-wrap gap-2">{pastDueSteps}</div> : null}
        </div>
      ) : null}
      {showFeatures && subscription.features.length > 0 ? (
        <div>
          <p className="text-sm font-semibold text-slate-800">What your plan includes</p>
          <ul className="mt-2 grid gap-1.5 text-sm text-slate-700 sm:grid-cols-2">
            {subscription.features.map((feature) => (
              <li key={feature} className="flex gap-2">
                <Check aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-emerald-600" />
                {feature}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {actions ? <div className="mt-auto flex flex-wrap gap-2">{actions}</div> : null}
    </article>
  );
}
