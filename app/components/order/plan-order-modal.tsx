import { formatPlanPrice, type PlanView } from "~/domain/catalogue";
import { planLineName } from "~/domain/order";
import { PLAN_INTENT } from "~/domain/order-intents";

import { OrderModal, type OrderModalProps } from "./order-modal";

type PlanOrderModalProps = Omit<OrderModalProps, "open" | "title" | "lines" | "hidden" | "description"> & {
  /** The chosen plan (from the catalogue), or null when the modal is closed. */
  plan: PlanView | null;
};

/** 'Continue' on a plan: the same order modal, for a monthly subscription. */
export function PlanOrderModal({ plan, ...props }: PlanOrderModalProps) {
  return (
    <OrderModal
      {...props}
      open={!!plan}
      title={plan ? `Subscribe to ${plan.name}` : ""}
      description={plan ? `${formatPlanPrice(plan)}, billed monthly. Cancel any time.` : undefined}
      lines={plan ? [{ name: planLineName(plan.name, "sign-up"), amountCents: plan.priceCents, recurring: true }] : []}
      hidden={{ intent: PLAN_INTENT, planId: plan?.key ?? "" }}
    />
  );
}
