import { findPlan, formatPlanPrice } from "~/components/landing/plans";
import { OrderModal, type OrderModalProps } from "./order-modal";
import { PLAN_INTENT } from "./order-intents";

type PlanOrderModalProps = Omit<OrderModalProps, "open" | "title" | "lines" | "hidden" | "description"> & {
  planId: string | null;
};

/** 'Continue' on a plan: the same order modal, for a monthly subscription. */
export function PlanOrderModal({ planId, ...props }: PlanOrderModalProps) {
  const plan = planId ? findPlan(planId) : undefined;
  return (
    <OrderModal
      {...props}
      open={!!plan}
      title={plan ? `Subscribe to ${plan.title}` : ""}
      description={plan ? `${formatPlanPrice(plan)}, billed monthly. Cancel any time.` : undefined}
      lines={plan ? [{ name: `${plan.title} (monthly)`, amountCents: plan.priceCents, recurring: true }] : []}
      hidden={{ intent: PLAN_INTENT, planId: plan?.id ?? "" }}
    />
  );
}
