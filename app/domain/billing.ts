/*
 * Subscriptions, receipts and the account page: the shapes the API and the dashboard share,
 * the statuses a person sees, and the account forms' rules. Isomorphic: no React, no server code.
 */
import { type receiptJson, type subscriptionJson } from "~/domain/schemas/billing-api";
import { line, z } from "~/domain/zod";

/** Stripe's subscription statuses mapped onto the four the API answers (docs/api.md). */
export type SubscriptionApiStatus = SubscriptionJson["status"];

export function apiSubscriptionStatus(stripeStatus: string): SubscriptionApiStatus {
  switch (stripeStatus) {
    case "active":
    case "trialing":
      return "active";
    case "past_due":
    case "unpaid":
      return "past_due";
    case "incomplete":
      return "incomplete";
    default:
      return "canceled";
  }
}

/** Statuses in which the customer still has their plan (and it counts in MRR). */
export const LIVE_SUBSCRIPTION_STATUSES = ["active", "trialing", "past_due", "unpaid"] as const;
export const isLiveStatus = (status: string) => (LIVE_SUBSCRIPTION_STATUSES as readonly string[]).includes(status);

/** A plan as the API sends it (derived from its schema, app/domain/schemas/billing-api.ts). */
export type SubscriptionJson = z.infer<typeof subscriptionJson>;
/**
 * A plan as the loaders hand it to screens (decision 309): ids as `id`, the monthly price in integer
 * cents. The API's edge writes it as SubscriptionJson (`_id`, dollars).
 */
export interface Subscription {
  id: string;
  plan: { id: string; key: string; name: string };
  priceCents: number;
  currency: string;
  status: SubscriptionApiStatus;
  /** When the current period ends: the next renewal, or the end of a plan set to cancel. */
  currentPeriodEnd: string | null;
  cancelAtPeriodEnd: boolean;
  /** What the plan includes. */
  features: string[];
  createdAt: string;
  brief: { required: boolean; submittedAt: string | null };
}

export type PlanDisplayStatus = "active" | "past_due" | "ending" | "canceled" | "incomplete";

/** What a person reads: active, past due, cancelled at period end, cancelled. */
export function planDisplayStatus(subscription: Pick<SubscriptionJson, "status" | "cancelAtPeriodEnd">): PlanDisplayStatus {
  if (subscription.status === "active" && subscription.cancelAtPeriodEnd) return "ending";
  return subscription.status;
}

export const PLAN_STATUS_LABELS: Record<PlanDisplayStatus, string> = {
  active: "Active",
  past_due: "Past due",
  ending: "Cancels at period end",
  canceled: "Cancelled",
  incomplete: "Awaiting payment",
};

/** A receipt as the API sends it: an order or a renewal invoice (money in dollars). */
export type ReceiptJson = z.infer<typeof receiptJson>;
/** A receipt as the loaders hand it to screens (decision 309): an order or a renewal invoice, money in integer cents. */
export interface Receipt {
  id: string;
  kind: ReceiptJson["kind"];
  amountCents: number;
  /** Refunded so far. */
  refundedCents: number;
  currency: string;
  paidAt: string;
  /** Stripe's hosted invoice with a Stripe key; our printable receipt page otherwise. */
  url: string;
  description: string;
}

/** The month a plan report covers: "2026-11" (UTC). */
export function reportPeriod(date = new Date()) {
  return date.toISOString().slice(0, 7);
}

export function formatPeriod(period: string) {
  const [year, month] = period.split("-").map(Number);
  return new Intl.DateTimeFormat("en-US", { month: "long", year: "numeric", timeZone: "UTC" }).format(new Date(Date.UTC(year, month - 1, 1)));
}

/** A short device name from a User-Agent: "Chrome on Windows". */
export function describeDevice(userAgent: string | null | undefined): string {
  if (!userAgent) return "Unknown device";
  const ua = userAgent;
  const browser = /Edg\//.test(ua)
    ? "Edge"
    : /OPR\//.test(ua)
      ? "Opera"
      : /Firefox\//.test(ua)
        ? "Firefox"
        : /Chrom(e|ium)\//.test(ua)
          ? "Chrome"
          : /Safari\//.test(ua)
            ? "Safari"
            : /curl\//i.test(ua)
              ? "curl"
              : /node|undici|axios|python|okhttp/i.test(ua)
                ? "API client"
                : "Browser";
  const os = /Windows/.test(ua)
    ? "Windows"
    : /iPhone|iPad|iOS/.test(ua)
      ? "iOS"
      : /Android/.test(ua)
        ? "Android"
        : /Mac OS X|Macintosh/.test(ua)
          ? "macOS"
          : /Linux/.test(ua)
            ? "Linux"
            : null;
  return os ? `${browser} on ${os}` : browser;
}

export const ACCOUNT_MESSAGES = {
  nameRequired: "Name is required",
  nameTooLong: "Name must be at most 100 characters",
  emailRequired: "Email is required",
  emailInvalid: "Invalid email address",
  emailSame: "That is already your e-mail address.",
  emailTaken: "Another account already uses this e-mail address.",
  /** The same answer whether or not another account uses the address, so it tells no one who has an account (decision 126). */
  emailRequested: (email: string) => `If ${email} can be used, a confirmation link is on its way there. Your e-mail changes when you open it.`,
  currentPassword: "Current password is required",
  passwordRequired: "Password is required",
  passwordShort: "Password must be at least 8 characters",
  passwordLong: "Password must be at most 128 characters",
  confirmRequired: "Confirm Password is required",
  passwordsMatch: "Passwords must match",
  wrongPassword: "Your current password is not correct.",
} as const;

export const accountNameSchema = line(
  z.string({ error: ACCOUNT_MESSAGES.nameRequired }).trim().min(1, ACCOUNT_MESSAGES.nameRequired).max(100, ACCOUNT_MESSAGES.nameTooLong),
  "Name",
);

export const accountEmailSchema = z
  .string({ error: ACCOUNT_MESSAGES.emailRequired })
  .trim()
  .min(1, ACCOUNT_MESSAGES.emailRequired)
  .max(254, ACCOUNT_MESSAGES.emailInvalid)
  .email(ACCOUNT_MESSAGES.emailInvalid);

export const newPasswordSchema = z
  .string({ error: ACCOUNT_MESSAGES.passwordRequired })
  .min(1, ACCOUNT_MESSAGES.passwordRequired)
  .min(8, ACCOUNT_MESSAGES.passwordShort)
  .max(128, ACCOUNT_MESSAGES.passwordLong);

const currentPasswordSchema = z.string({ error: ACCOUNT_MESSAGES.currentPassword }).min(1, ACCOUNT_MESSAGES.currentPassword).max(1024);

/**
 * PATCH /api/account: a new name, and/or a new e-mail (which is confirmed by a link first and,
 * like a password change, needs the current password).
 */
export const accountPatchSchema = z
  .object({
    name: accountNameSchema.optional(),
    email: accountEmailSchema.optional(),
    currentPassword: currentPasswordSchema.optional().meta({ description: "Required with `email`: the account's current password." }),
  })
  .refine((v) => v.name !== undefined || v.email !== undefined, { message: "Please give a name or an e-mail address to change." })
  .refine((v) => v.email === undefined || v.currentPassword !== undefined, { message: ACCOUNT_MESSAGES.currentPassword, path: ["currentPassword"] });

/** The account page's e-mail form. */
export const emailChangeFormSchema = z.object({ email: accountEmailSchema, currentPassword: currentPasswordSchema });

export const passwordChangeSchema = z.object({
  currentPassword: currentPasswordSchema,
  newPassword: newPasswordSchema,
});

/** The account page's password form adds the confirmation field. */
export const passwordFormSchema = z
  .object({
    currentPassword: currentPasswordSchema,
    newPassword: newPasswordSchema,
    confirmPassword: z.string({ error: ACCOUNT_MESSAGES.confirmRequired }).min(1, ACCOUNT_MESSAGES.confirmRequired),
  })
  .refine((v) => v.newPassword === v.confirmPassword, { message: ACCOUNT_MESSAGES.passwordsMatch, path: ["confirmPassword"] });
