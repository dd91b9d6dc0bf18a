export type PlanId = "starter" | "pro" | "vip";
export type PlanColor = "sky" | "brand" | "accent";

export type Plan = {
  id: PlanId;
  title: string;
  /** Monthly price in cents: 4900 is $49 a month. */
  priceCents: number;
  tagline: string;
  features: string[];
  color: PlanColor;
  highlighted?: boolean;
};

export const plans: Plan[] = [
  {
    id: "starter",
    title: "STARTER PACKAGE",
    priceCents: 4900,
    tagline: "A consistent, professional presence on the platforms that matter most to you.",
    features: [
      "12 branded posts a month on two platforms",
      "Profile refresh: bio, cover and highlight covers",
      "Captions and hashtags written for you",
      "Monthly performance snapshot",
      "Email support within one business day",
    ],
    color: "sky",
  },
  {
    id: "pro",
    title: "PRO PACKAGE",
    priceCents: 15900,
    tagline: "For growing brands ready to turn followers into customers.",
    features: [
      "20 posts a month on three platforms, including short-form video",
      "Monthly content calendar planned with you",
      "Community management: comments and DMs answered daily",
      "Bi-weekly analytics report with recommendations",
      "$100 off a professional photoshoot",
      "Priority chat support",
    ],
    color: "brand",
    highlighted: true,
  },
  {
    id: "vip",
    title: "VIP TREATMENT",
    priceCents: 58900,
    tagline: "A dedicated team running your social presence end to end.",
    features: [
      "Daily posting on every platform you use",
      "Dedicated brand strategist and a monthly strategy call",
      "Paid ad campaigns set up, managed and optimised",
      "$100 ad credits every month (no rollover)",
      "Influencer outreach and collaboration management",
      "Weekly reporting and same-day support",
    ],
    color: "accent",
  },
];

/** "$49": whole dollars drop the cents. */
export function formatPlanAmount(plan: Pick<Plan, "priceCents">): string {
  return new Intl.NumberFormat("en-US", {
    style: "currency",
    currency: "USD",
    minimumFractionDigits: plan.priceCents % 100 === 0 ? 0 : 2,
  }).format(plan.priceCents / 100);
}

/** "$49/mo". */
export function formatPlanPrice(plan: Pick<Plan, "priceCents">): string {
  return `${formatPlanAmount(plan)}/mo`;
}

export function findPlan(id: string): Plan | undefined {
  return plans.find((plan) => plan.id === id);
}
