/** One line of an order as the checkout page, the success page and the e-mails show it. */
export interface OrderLine {
  name: string;
  amountCents: number;
  quantity: number;
  recurring: boolean;
}

/**
 * What a plan's payment paid for: the sign-up (its first month), a later month, or the prorated
 * difference of a switch to another plan in the middle of a period (Stripe's `subscription_update`).
 */
export type PlanCharge = "sign-up" | "renewal" | "switch";

/** A plan order's charge from its kind and, for a later payment, its invoice's billing reason. */
export function planChargeOf(kind: "subscription" | "renewal", billingReason?: string | null): PlanCharge {
  if (kind === "subscription") return "sign-up";
  return billingReason === "subscription_update" ? "switch" : "renewal";
}

/**
 * The one name of a plan's order line, in the same words on the checkout, the receipt, the staff
 * orders list and order page, the CSV and the account's data export (decision 264). `planName` is the
 * plan the money is for: after a switch, the new plan.
 */
export function planLineName(planName: string, charge: PlanCharge): string {
  if (charge === "switch") return `Switch to ${planName}, prorated`;
  return charge === "renewal" ? `${planName} (monthly renewal)` : `${planName} (monthly)`;
}

/** A plan payment's short label beside its date (the plan's payments, the order page's kind). */
export const PLAN_CHARGE_LABELS: Record<PlanCharge, string> = { "sign-up": "Sign-up", renewal: "Renewal", switch: "Switch, prorated" };
