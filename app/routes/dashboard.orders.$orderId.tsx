import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";

import { BackLink } from "~/components/dashboard/back-link";
import { OrderStatusBadge } from "~/components/dashboard/order-status-badge";
import { Button } from "~/components/ui/button";
import { Field, Input } from "~/components/ui/input";
import { SectionBoundary } from "~/components/ui/section-error";
import { dollarsToCents, formatMoney } from "~/domain/format";
import { formatDate } from "~/domain/purchase";
import { refundAmountField } from "~/domain/schemas/ops";
import { z } from "~/domain/zod";
import { getOrderDetail } from "~/models/orders-list.server";
import { refundOrder } from "~/models/refunds.server";
import { HttpError } from "~/utils/http.server";
import { requireTeam } from "~/web/auth.server";
import { readForm } from "~/web/body-limit.server";
import { pageNotFound } from "~/web/guards.server";
import { redirectWithToast } from "~/web/toast.server";

/**
 * /dashboard/orders/:orderId: one order for staff: its lines, the customer, Stripe's ids, the
 * e-mails sent and its refunds, with the refund form (full or partial; works without JavaScript).
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireTeam(request);
  const detail = await getOrderDetail(params.orderId ?? "");
  if (!detail) throw pageNotFound();
  // One key per rendered form: submitting it twice (a double click, a resent POST) refunds once.
  return { ...detail, refundKey: crypto.randomUUID() };
}

const refundForm = z.object({ amount: refundAmountField, refundKey: z.string().uuid("Please reload the page and try again.") });

export async function action({ request, params }: ActionFunctionArgs) {
  const staff = await requireTeam(request);
  const orderId = params.orderId ?? "";
  const parsed = refundForm.safeParse(Object.fromEntries(await readForm(request)));
  if (!parsed.success) return data({ error: parsed.error.issues[0]?.message ?? "Invalid refund." }, { status: 400 });
  try {
    const order = await refundOrder(orderId, {
      amountCents: parsed.data.amount === undefined ? undefined : dollarsToCents(parsed.data.amount),
      requestKey: `form:${staff.id}:${parsed.data.refundKey}`,
      staffId: staff.id,
    });
    const message = order.status === "refunded" ? "The order has been refunded." : "The refund has been made.";
    return redirectWithToast(`/dashboard/orders/${orderId}`, { type: "success", message });
  } catch (error) {
    if (error instanceof HttpError && error.status === 404) throw pageNotFound();
    if (error instanceof HttpError) return data({ error: error.message }, { status: error.status });
    throw error;
  }
}

type OrderData = ReturnType<typeof useLoaderData<typeof loader>>;

export default function OrderPage() {
  return <OrderView {...useLoaderData<typeof loader>()} />;
}

function Dt({ children }: { children: React.ReactNode }) {
  return <dt className="text-xs font-semibold tracking-wide text-slate-500 uppercase">{children}</dt>;
}

function OrderView({ order, stripeSessionId, stripePaymentIntentId, stripeCustomerId, refunds, emails, refundKey }: OrderData) {
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const left = Math.round((order.amount - order.refunded) * 100) / 100;
  const refundable = (order.status === "paid" || order.status === "partially_refunded") && left > 0;
  return (
    <section aria-labelledby="order-heading" className="space-y-6">
      <BackLink to="/dashboard/orders">Back to orders</BackLink>
      <div className="flex flex-wrap items-center gap-3">
        <h2 id="order-heading" className="text-xl font-bold text-slate-950">
          Order of {order.name}
        </h2>
        <OrderStatusBadge status={order.status} />
      </div>
      <div className="grid gap-6 lg:grid-cols-2">
        <div className="rounded-card border border-slate-200 bg-white p-5 shadow-card">
          <h3 className="font-bold text-slate-950">Lines</h3>
          <ul className="mt-3 divide-y divide-slate-200">
            {order.lines.map((line) => (
              <li key={line.service._id} className="flex justify-between gap-4 py-2 text-sm">
                <span>
                  {line.service.name}
                  {line.quantity > 1 ? ` × ${line.quantity}` : ""}
                </span>
                <span className="font-semibold">{formatMoney(line.price * line.quantity, order.currency)}</span>
              </li>
            ))}
          </ul>
          <dl className="mt-3 space-y-1 border-t border-slate-200 pt-3 text-sm">
            <div className="flex justify-between">
              <dt>Total</dt>
              <dd className="font-semibold">{formatMoney(order.amount, order.currency)}</dd>
            </div>
            <div className="flex justify-between">
              <dt>Refunded</dt>
              <dd data-testid="order-refunded">{formatMoney(order.refunded, order.currency)}</dd>
            </div>
            <div className="flex justify-between">
              <dt>Net</dt>
              <dd className="font-semibold">{formatMoney(left, order.currency)}</dd>
            </div>
          </dl>
        </div>
        <dl className="grid gap-3 rounded-card border border-slate-200 bg-white p-5 text-sm shadow-card sm:grid-cols-2">
          <div>
            <Dt>Customer</Dt>
            <dd className="break-words">
              {order.customer ? `${order.customer.name} (${order.customer.email})` : `${order.name} (${order.email}), no account yet`}
            </dd>
          </div>
          <div>
            <Dt>Kind</Dt>
            <dd>{order.kind === "plan" ? "Plan sign-up" : "Services"}</dd>
          </div>
          <div>
            <Dt>Placed</Dt>
            <dd>{formatDate(order.createdAt)}</dd>
          </div>
          <div>
            <Dt>Paid</Dt>
            <dd>{order.paidAt ? formatDate(order.paidAt) : "Not paid"}</dd>
          </div>
          <div className="sm:col-span-2">
            <Dt>Stripe session</Dt>
            <dd className="font-mono text-xs break-all">{stripeSessionId ?? "—"}</dd>
          </div>
          <div className="sm:col-span-2">
            <Dt>Stripe payment</Dt>
            <dd className="font-mono text-xs break-all">{stripePaymentIntentId ?? "—"}</dd>
          </div>
          <div className="sm:col-span-2">
            <Dt>Stripe customer</Dt>
            <dd className="font-mono text-xs break-all">{stripeCustomerId ?? "—"}</dd>
          </div>
        </dl>
      </div>

      <div className="rounded-card border border-slate-200 bg-white p-5 shadow-card">
        <h3 className="font-bold text-slate-950">Refunds</h3>
        {refunds.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600">No refunds.</p>
        ) : (
          <ul className="mt-2 divide-y divide-slate-200 text-sm">
            {refunds.map((refund) => (
              <li key={refund.id} className="flex flex-wrap justify-between gap-2 py-2">
                <span>
                  {formatMoney(refund.amount, refund.currency)} · {refund.status} ·{" "}
                  {refund.source === "stripe" ? "from Stripe" : `by ${refund.createdBy ?? "staff"}`} · {formatDate(refund.createdAt)}
                  {refund.failureMessage ? ` · ${refund.failureMessage}` : ""}
                </span>
                <span className="font-mono text-xs text-slate-500">{refund.stripeRefundId ?? ""}</span>
              </li>
            ))}
          </ul>
        )}
        {refundable ? (
          <Form method="post" className="mt-4 flex flex-wrap items-end gap-3" aria-label="Refund this order">
            <input type="hidden" name="refundKey" value={refundKey} />
            <Field label={`Amount to refund (up to ${formatMoney(left, order.currency)})`} error={actionData?.error} className="w-64">
              {(control) => <Input {...control} name="amount" inputMode="decimal" placeholder={left.toFixed(2)} />}
            </Field>
            <Button type="submit" variant="danger" loading={navigation.state === "submitting"}>
              Refund
            </Button>
            <p className="w-full text-xs text-slate-600">Leave the amount empty to refund what is left. The customer is told by e-mail.</p>
          </Form>
        ) : actionData?.error ? (
          <p role="alert" className="mt-3 text-sm font-semibold text-red-700">
            {actionData.error}
          </p>
        ) : null}
      </div>

      <div className="rounded-card border border-slate-200 bg-white p-5 shadow-card">
        <h3 className="font-bold text-slate-950">E-mails sent</h3>
        {emails.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600">No e-mails about this order yet.</p>
        ) : (
          <ul className="mt-2 divide-y divide-slate-200 text-sm">
            {emails.map((email, index) => (
              <li key={index} className="py-2">
                <span className="font-semibold">{email.subject}</span> to {email.recipient} · {formatDate(email.sentAt)}
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}

/** A detail page: on phones the dashboard layout leaves out its overview and chart, so the page's own content comes first. */
export const handle = { detail: true };

export const meta: MetaFunction = () => [{ title: "Order — BrandLift dashboard" }];

export function ErrorBoundary() {
  return <SectionBoundary<OrderData> message="Failed to load this order" render={(data) => <OrderView {...data} />} />;
}
