import { schema, type Tx } from "~/utils/db.server";
import { idOf, type Stripe } from "~/utils/stripe.server";

/*
 * Paid invoices as Stripe reports them. A subscription's renewals are revenue (the `renewal` rows, see
 * /docs/decisions/085-renewals-as-revenue.md); the first invoice of a plan is already the plan
 * order's money. Receipts (app/models/receipts.server.ts) read these rows.
 */

const toDate = (seconds: number | null | undefined) => (typeof seconds === "number" ? new Date(seconds * 1000) : null);

/** Records a paid invoice once (its Stripe id is unique): the new row, or null when it was already recorded. */
export async function recordInvoice(
  tx: Tx,
  invoice: Stripe.Invoice,
  owner: { orderId: string | null; userId: string | null; subscriptionId: string | null; renewal: boolean },
): Promise<typeof schema.invoices.$inferSelect | null> {
  const line = invoice.lines?.data?.[0];
  const legacy = invoice as Stripe.Invoice & { payment_intent?: string | { id: string } | null; charge?: string | { id: string } | null };
  const paidAt = toDate(invoice.status_transitions?.paid_at) ?? new Date();
  const inserted = await tx
    .insert(schema.invoices)
    .values({
      stripeInvoiceId: invoice.id!,
      subscriptionId: owner.subscriptionId,
      userId: owner.userId,
      orderId: owner.orderId,
      renewal: owner.renewal,
      billingReason: invoice.billing_reason ?? null,
      amountCents: invoice.amount_paid ?? 0,
      currency: invoice.currency ?? "usd",
      paidAt,
      periodStart: toDate(line?.period?.start),
      periodEnd: toDate(line?.period?.end),
      hostedInvoiceUrl: invoice.hosted_invoice_url ?? null,
      stripePaymentIntentId: idOf(legacy.payment_intent),
      stripeChargeId: idOf(legacy.charge),
    })
    .onConflictDoNothing({ target: schema.invoices.stripeInvoiceId })
    .returning();
  return inserted[0] ?? null;
}
