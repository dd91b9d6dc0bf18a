import { Check } from "lucide-react";
import type { ReactNode } from "react";

import { SectionHeading } from "~/components/landing/section-heading";
import { Button } from "~/components/ui/button";
import { cn } from "~/components/ui/cn";
import { formatPlanAmount, type PlanView } from "~/domain/catalogue";

/**
 * Each plan's default "Continue" is `<button type="submit" name="planId" value={plan.id}>`, so the
 * route wraps this section in its own form, e.g.
 *   <Form method="post" action="/?index"><input type="hidden" name="intent" value="subscribe" />
 *     <SubscriptionOptions pendingPlanId={…} /></Form>
 * and it works without JavaScript.
 */
export type SubscriptionOptionsProps = {
  /** The monthly plans, from the catalogue. */
  plans: PlanView[];
  /** Replaces the default submit button of every plan, e.g. with a fetcher-driven one. */
  renderContinue?: (plan: PlanView, highlighted: boolean) => ReactNode;
  /** The plan being submitted: its button shows a spinner and all are disabled. */
  pendingPlanId?: string | null;
  /** Passed to each default button as `formAction` when the enclosing form posts elsewhere. */
  formAction?: string;
};

type PlanColor = "sky" | "brand" | "accent";

const colorStyles: Record<PlanColor, { badge: string; card: string; check: string }> = {
  sky: { badge: "bg-sky-100 text-sky-900", card: "border-slate-200", check: "text-sky-700" },
  brand: { badge: "bg-brand-600 text-white", card: "border-brand-600 ring-1 ring-brand-600", check: "text-brand-600" },
  accent: { badge: "bg-accent-100 text-accent-900", card: "border-slate-200", check: "text-accent-700" },
};

/** How each plan looks, by its key (presentation, not catalogue data); the middle one is highlighted. */
const PLAN_LOOK: Record<string, { color: PlanColor; highlighted?: boolean }> = {
  starter: { color: "sky" },
  pro: { color: "brand", highlighted: true },
  vip: { color: "accent" },
};

export function SubscriptionOptions({ plans, renderContinue, pendingPlanId, formAction }: SubscriptionOptionsProps) {
  return (
    <section id="subscription-options" aria-labelledby="subscription-options-heading" className="render-when-near py-20 sm:py-24">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <SectionHeading id="subscription-options-heading" eyebrow="Monthly plans" title="Subscription options">
          Hand us the day-to-day and get consistent, on-brand social media every month. No long-term contract: change or cancel any time.
        </SectionHeading>
        <ol className="mt-14 grid gap-8 lg:grid-cols-3">
          {plans.map((plan, index) => {
            const look = PLAN_LOOK[plan.key] ?? { color: "sky" };
            const styles = colorStyles[look.color];
            return (
              <li key={plan.key} className={cn("relative flex flex-col rounded-card border bg-white p-7 shadow-card sm:p-8", styles.card)}>
                {look.highlighted ? (
                  <p className="absolute -top-3.5 right-6 rounded-full bg-accent-400 px-3 py-1 text-xs font-bold tracking-wide text-slate-950 uppercase">
                    Most popular
                  </p>
                ) : null}
                <div className="flex items-center gap-4">
                  <span aria-hidden="true" className={cn("flex size-11 shrink-0 items-center justify-center rounded-full text-lg font-bold", styles.badge)}>
                    {index + 1}
                  </span>
                  <h3 className="text-lg font-bold tracking-wide text-slate-950">{plan.name}</h3>
                </div>
                <p className="mt-4 text-sm leading-relaxed text-slate-600">{plan.tagline}</p>
                <p className="mt-6 flex items-baseline gap-1 text-slate-950">
                  <span className="text-4xl font-extrabold tracking-tight tabular-nums">{formatPlanAmount(plan)}</span>
                  <span className="text-base font-semibold text-slate-600">/mo</span>
                </p>
                <ul className="mt-6 flex-1 space-y-3 border-t border-slate-100 pt-6">
                  {plan.features.map((feature) => (
                    <li key={feature} className="flex gap-3 text-sm text-slate-700">
                      <Check className={cn("mt-0.5 size-4 shrink-0", styles.check)} />
                      {feature}
                    </li>
                  ))}
                </ul>
                <div className="mt-8">
                  {renderContinue ? (
                    renderContinue(plan, !!look.highlighted)
                  ) : (
                    <Button
                      type="submit"
                      name="planId"
                      value={plan.key}
                      formAction={formAction}
                      variant={look.highlighted ? "primary" : "outline"}
                      size="lg"
                      loading={pendingPlanId === plan.key}
                      disabled={Boolean(pendingPlanId)}
                      className="w-full"
                    >
                      Continue<span className="sr-only"> with {plan.name}</span>
                    </Button>
                  )}
                </div>
              </li>
            );
          })}
        </ol>
      </div>
    </section>
  );
}
