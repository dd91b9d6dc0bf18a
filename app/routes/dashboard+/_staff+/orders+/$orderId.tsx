import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";

import { BriefList } from "~/components/customer/customer-sections";
import { BackLink } from "~/components/dashboard/back-link";
import { EmailList } from "~/components/dashboard/email-list";
import { OrderStatusBadge } from "~/components/dashboard/order-status-badge";
import { OrderTimeline } from "~/components/dashboard/order-timeline";
import { RefundPanel } from "~/components/dashboard/refund-panel";
import { SectionBoundary } from "~/components/ui/section-error";
import { dollarsToCents, formatCents } from "~/domain/format";
import { PLAN_CHARGE_LABELS } from "~/domain/order";
import { formatDate } from "~/domain/purchase";
import { refundFormSchema } from "~/domain/schemas/subscriptions";
import { listBriefsForStaff } from "~/models/briefs.server";
import { emailsOfOrder } from "~/models/emails.server";
import { getOrderDetail } from "~/models/orders-list.server";
import { previewRefund, refundOrder } from "~/models/refunds.server";
import { HttpError } from "~/utils/http.server";
import { answerNotReusable } from "~/utils/request-context.server";
import { requireTeam } from "~/web/auth.server";
import { readForm } from "~/web/body-limit.server";
import { pageNotFound } from "~/web/guards.server";
import { redirectWithToast } from "~/web/toast.server";

/**
 * /dashboard/orders/:orderId: one order for staff: its lines, the customer, Stripe's ids, the
 * e-mails sent (with their state, and Send again) and its refunds, with the refund form (full or partial; works without JavaScript).
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireTeam(request);
  const detail = await getOrderDetail(params.orderId ?? "");
  if (!detail) throw pageNotFound();
  // One key per rendered form: submitting it twice (a double click, a resent POST) refunds once.
  const [briefs, emails] = await Promise.all([listBriefsForStaff({ orderId: detail.order.id }), emailsOfOrder(detail.order.id)]);
  // The refund form's idempotency key is this page view's own: the page is rendered afresh each time.
  answerNotReusable();
  return { ...detail, briefs, emails, refundKey: crypto.randomUUID() };
}

/**
 * The refund, in two steps (decision 176): the amount (empty: what is left) and a reason, answered
 * with a confirmation that says exactly what is refunded to whom; only `confirm=yes` refunds.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const staff = await requireTeam(request);
  const orderId = params.orderId ?? "";
  const submission = parseWithZod(await readForm(request), { schema: refundFormSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const { amount, reason, refundKey, confirm } = submission.value;
  const amountCents = amount === undefined ? undefined : dollarsToCents(amount);
  try {
    if (!confirm) {
      const preview = await previewRefund(orderId, amountCents);
      return { confirm: { ...preview, reason, refundKey, amountInput: amount === undefined ? "" : String(amount) } };
    }
    const order = await refundOrder(orderId, { amountCents, reason, requestKey: `form:${staff.id}:${refundKey}`, staffId: staff.id });
    const message = order.status === "refunded" ? "The order has been refunded." : "The refund has been made.";
    return redirectWithToast(`/dashboard/orders/${orderId}`, { type: "success", message });
  } catch (error) {
    if (error instanceof HttpError && error.status === 404) throw pageNotFound();
    // What the model refuses (more than is left, nothing paid) is said under the amount.
    if (error instanceof HttpError) return data({ result: submission.reply({ fieldErrors: { amount: [error.message] } }) }, { status: error.status });
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

function OrderView({ order, stripeSessionId, stripePaymentIntentId, stripeCustomerId, timeline, refundKey, briefs, emails }: OrderData) {
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const leftCents = order.amountCents - order.refundedCents;
  const refundable = (order.status === "paid" || order.status === "partially_refunded") && leftCents > 0;
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
              <li key={line.service.id} className="flex justify-between gap-4 py-2 text-sm">
                <span>
                  {line.service.name}
                  {line.quantity > 1 ? ` × ${line.quantity}` : ""}
                </span>
                <span className="font-semibold">{formatCents(line.priceCents * line.quantity, order.currency)}</span>
              </li>
            ))}
          </ul>
          <dl className="mt-3 space-y-1 border-t border-slate-200 pt-3 text-sm">
            <div className="flex justify-between">
              <dt>Total</dt>
              <dd className="font-semibold">{formatCents(order.amountCents, order.currency)}</dd>
            </div>
            <div className="flex justify-between">
              <dt>Refunded</dt>
              <dd data-testid="order-refunded">{formatCents(order.refundedCents, order.currency)}</dd>
            </div>
            <div className="flex justify-between">
              <dt>Net</dt>
              <dd className="font-semibold">{formatCents(leftCents, order.currency)}</dd>
            </div>
          </dl>
        </div>
        <dl className="grid gap-3 rounded-card border border-slate-200 bg-white p-5 text-sm shadow-card sm:grid-cols-2">
          <div>
            <Dt>Customer</Dt>
            <dd className="break-words">
              {order.customer ? `${order.customer.name} (${order.customer.email})` : `${order.name} (${order.email}), no account yet`}
              {order.client ? (
                <span className="block text-slate-700" data-testid="order-client">
                  Client {order.client.name}
                </span>
              ) : null}
            </dd>
          </div>
          <div>
            <Dt>Kind</Dt>
            <dd>
              {order.charge ? `Plan ${PLAN_CHARGE_LABELS[order.charge].toLowerCase()}` : "Services"}
              {order.subscriptionId ? (
                <>
                  {" · "}
                  <Link to={`/dashboard/subscriptions/${order.subscriptionId}`} className="font-semibold text-brand-700 hover:underline">
                    View the plan
                  </Link>
                </>
              ) : null}
            </dd>
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

      {briefs.length > 0 ? (
        <section aria-labelledby="order-briefs-heading" className="rounded-card border border-slate-200 bg-white p-5 shadow-card">
          <h3 id="order-briefs-heading" className="font-bold text-slate-950">
            {briefs.length === 1 ? "Brief" : "Briefs"}
          </h3>
          <BriefList briefs={briefs} />
        </section>
      ) : null}

      <div className="rounded-card border border-slate-200 bg-white p-5 shadow-card">
        <h3 className="font-bold text-slate-950">Refund</h3>
        {refundable ? null : (
          <p className="mt-2 text-sm text-slate-600">{order.refundedCents > 0 ? "Refunded in full." : "Nothing to refund: this order has not been paid."}</p>
        )}
        <RefundPanel
          orderId={order.id}
          currency={order.currency}
          leftCents={leftCents}
          refundable={refundable}
          refundKey={refundKey}
          result={actionData}
          busy={navigation.state === "submitting"}
        />
      </div>

      <EmailList emails={emails} back={`/dashboard/orders/${order.id}`} headingId="order-emails-heading" />

      <OrderTimeline entries={timeline} />
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: "Order — BrandLift dashboard" }];

export function ErrorBoundary() {
  return <SectionBoundary<OrderData> message="Failed to load this order" render={(data) => <OrderView {...data} />} />;
}
