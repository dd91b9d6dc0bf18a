import { line, z } from "~/domain/zod";

/** The built-in test checkout's card form. Only Stripe's famous test card is accepted. */
export const TEST_CARD_NUMBER = "4242424242424242";

export const EXPIRY_MESSAGES = {
  required: "Expiry date is required",
  incomplete: "Your card's expiration date is incomplete. Enter it as MM / YY, for example 12 / 30.",
  month: "Your card's expiration month is invalid.",
  past: "Your card's expiration date is in the past.",
} as const;

/**
 * The expiry as people type it: "1230", "12/30", "12 / 30" (spaces anywhere). One message per
 * problem, never two. `now` is for tests.
 */
export function expiryProblem(value: string, now = new Date()): string | null {
  const match = /^(\d{2})\/?(\d{2})$/.exec(value.replace(/\s+/g, ""));
  if (!match) return EXPIRY_MESSAGES.incomplete;
  const month = Number(match[1]);
  const year = 2000 + Number(match[2]);
  if (month < 1 || month > 12) return EXPIRY_MESSAGES.month;
  const current = now.getUTCFullYear() * 12 + now.getUTCMonth();
  return year * 12 + (month - 1) < current ? EXPIRY_MESSAGES.past : null;
}

export const testCardSchema = z.object({
  intent: z.literal("pay"),
  cardNumber: z
    .string({ error: "Card number is required" })
    .transform((value) => value.replace(/[\s-]+/g, ""))
    .refine((value) => /^\d{16}$/.test(value), { error: "Your card number is incomplete.", abort: true })
    .refine((value) => value === TEST_CARD_NUMBER, "Your card was declined. In test mode, use 4242 4242 4242 4242."),
  expiry: z
    .string({ error: EXPIRY_MESSAGES.required })
    .trim()
    .superRefine((value, ctx) => {
      const problem = value === "" ? EXPIRY_MESSAGES.required : expiryProblem(value);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    }),
  cvc: z
    .string({ error: "CVC is required" })
    .trim()
    .regex(/^\d{3,4}$/, "Your card's security code is incomplete."),
  cardholder: line(z.string({ error: "Name on card is required" }).trim().min(1, "Name on card is required").max(120), "Name on card"),
});
