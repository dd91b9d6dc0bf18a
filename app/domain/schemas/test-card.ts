import { line, z } from "~/domain/zod";

/** The built-in test checkout's card form. Only Stripe's famous test card is accepted. */
export const TEST_CARD_NUMBER = "4242424242424242";

function expiryInFuture(value: string) {
  const match = /^(\d{2})\s*\/\s*(\d{2})$/.exec(value);
  if (!match) return false;
  const month = Number(match[1]);
  const year = 2000 + Number(match[2]);
  const now = new Date();
  return year > now.getFullYear() || (year === now.getFullYear() && month >= now.getMonth() + 1);
}

export const testCardSchema = z.object({
  intent: z.literal("pay"),
  cardNumber: z
    .string({ error: "Card number is required" })
    .transform((value) => value.replace(/[\s-]+/g, ""))
    .refine((value) => /^\d{16}$/.test(value), "Your card number is incomplete.")
    .refine((value) => value === TEST_CARD_NUMBER, "Your card was declined. In test mode, use 4242 4242 4242 4242."),
  expiry: z
    .string({ error: "Expiry date is required" })
    .trim()
    .regex(/^(0[1-9]|1[0-2])\s*\/\s*\d{2}$/, "Enter the expiry date as MM / YY.")
    .refine(expiryInFuture, "Your card's expiration date is in the past."),
  cvc: z
    .string({ error: "CVC is required" })
    .trim()
    .regex(/^\d{3,4}$/, "Your card's security code is incomplete."),
  cardholder: line(z.string({ error: "Name on card is required" }).trim().min(1, "Name on card is required").max(120), "Name on card"),
});
