import { Form } from "@remix-run/react";

import { Button, ButtonLink } from "~/components/ui/button";
import { ArrowRight, CreditCard, RefreshCw } from "~/components/ui/icons";
import type { Subscription } from "~/domain/billing";

import { PlanCard } from "./plan-card";

/**
 * The customer's plans on the dashboard overview: each with its status, next renewal and what it
 * includes; "Open plan" (its reports and messages) and "Manage billing" (Stripe's portal, or the
 * test billing page), a plain form that works without JavaScript.
 */
export function PlanOverview({ plans }: { plans: Subscription[] }) {
  return (
    <section aria-labelledby="plans-heading" className="space-y-4">
      <h2 id="plans-heading" className="text-xl font-bold text-slate-950">
        Your {plans.length === 1 ? "plan" : "plans"}
      </h2>
      <div className="grid gap-4 lg:grid-cols-2">
        {plans.map((subscription) => (
          <PlanCard
            key={subscription.id}
            subscription={subscription}
            pastDueSteps={<PaymentSteps subscriptionId={subscription.id} />}
            actions={
              <>
                <ButtonLink to={`/dashboard/plans/${subscription.id}`} size="sm" variant="outline">
                  Open plan
                  <ArrowRight aria-hidden="true" className="size-4" />
                  <span className="sr-only">{subscription.plan.name}</span>
                </ButtonLink>
                {subscription.status !== "canceled" ? <ManageBillingButton /> : null}
              </>
            }
          />
        ))}
      </div>
    </section>
  );
}

export function ManageBillingButton() {
  return (
    <Form method="post" action="/dashboard/billing" reloadDocument>
      <Button type="submit" size="sm">
        <CreditCard aria-hidden="true" className="size-4" />
        Manage billing
      </Button>
    </Form>
  );
}

/** A past-due plan's way out: update the payment method (Stripe's portal or the test page), then retry. Plain forms. */
export function PaymentSteps({ subscriptionId }: { subscriptionId: string }) {
  return (
    <>
      <Form method="post" action="/dashboard/billing" reloadDocument>
        <input type="hidden" name="intent" value="payment-method" />
        <input type="hidden" name="subscriptionId" value={subscriptionId} />
        <Button type="submit" size="sm">
          <CreditCard aria-hidden="true" className="size-4" />
          Update payment method
        </Button>
      </Form>
      <Form method="post" action="/dashboard/billing" reloadDocument>
        <input type="hidden" name="intent" value="retry" />
        <input type="hidden" name="subscriptionId" value={subscriptionId} />
        <Button type="submit" size="sm" variant="outline">
          <RefreshCw aria-hidden="true" className="size-4" />
          Retry payment
        </Button>
      </Form>
    </>
  );
}
