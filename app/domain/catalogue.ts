/*
 * The catalogue's shapes and rules, shared by the landing page, checkout and the catalogue editor.
 * The catalogue itself lives in the database (app/models/catalogue.server.ts), seeded from
 * db/seed.ts; money is integer cents here and dollars only at the JSON API's edge.
 */

/** One of the three tiers of an "Our Services" card. Tier 1 is the service at its own price. */
export interface PackageView {
  tier: number;
  name: string;
  description: string;
  priceCents: number;
  features: string[];
}

/** An a-la-carte service as screens show it (the picker, the grade's advice): money in cents. */
export interface ServiceOffer {
  id: string;
  name: string;
  priceCents: number;
  currency: string;
  description: string | null;
}

/** An "Our Services" card: an active service with its three packages. Images are keyed by slug. */
export interface ShowcaseService {
  id: string;
  slug: string;
  name: string;
  description: string;
  packages: PackageView[];
}

/** A monthly plan as the landing page and checkout show it. */
export interface PlanView {
  id: string;
  key: string;
  name: string;
  tagline: string;
  priceCents: number;
  currency: string;
  features: string[];
}

/** Sentences and list items joined into one paragraph, each ending in exactly one full stop (no "direction.."). */
export function joinSentences(parts: (string | null | undefined)[]): string {
  return parts
    .map((part) => part?.trim().replace(/[.\s]+$/, ""))
    .filter(Boolean)
    .map((part) => (/[!?]$/.test(part!) ? part : `${part}.`))
    .join(" ");
}

/** Editor limits: a price is more than $0 and at most $100,000; a name 1–120 characters. */
export const MAX_PRICE_CENTS = 10_000_000;
export const MAX_NAME_LENGTH = 120;

/** How the order form names a package: `<service slug>:<tier>`, e.g. "social-media-audit:2". */
export function packageKey({ serviceSlug, tier }: { serviceSlug: string; tier: number }) {
  return `${serviceSlug}:${tier}`;
}

export function parsePackageKey(key: string): { serviceSlug: string; tier: number } | null {
  const match = /^([a-z0-9][a-z0-9-]{0,79}):([1-3])$/.exec(key);
  return match ? { serviceSlug: match[1], tier: Number(match[2]) } : null;
}

/** "Social Media Audit (Growth)": how a package is named on an order. */
export function packageLineName(service: { name: string }, tier: { name: string }) {
  return `${service.name} (${tier.name})`;
}

/** "$49": whole dollars drop the cents. */
export function formatPlanAmount(plan: Pick<PlanView, "priceCents">): string {
  return new Intl.NumberFormat("en-US", {
    style: "currency",
    currency: "USD",
    minimumFractionDigits: plan.priceCents % 100 === 0 ? 0 : 2,
  }).format(plan.priceCents / 100);
}

/** "$49/mo". */
export function formatPlanPrice(plan: Pick<PlanView, "priceCents">): string {
  return `${formatPlanAmount(plan)}/mo`;
}

/** A slug from a service name: "Paid Ads Setup!" -> "paid-ads-setup". */
export function slugify(name: string): string {
  const slug = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)
    .replace(/-+$/, "");
  return slug || "service";
}
