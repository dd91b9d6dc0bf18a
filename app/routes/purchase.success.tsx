import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { CircleCheck, Home, LayoutDashboard } from "lucide-react";

import { SiteFooter } from "~/components/landing/site-footer";
import { SiteHeader } from "~/components/landing/site-header";
import { OrderSummary } from "~/components/order/order-summary";
import { ButtonLink } from "~/components/ui/button";
import { findOrderBySession, fulfilCheckoutSession, orderLines, retrieveCheckoutSession } from "~/models/orders.server";
import { logger } from "~/utils/logger.server";

const STRIPE_SESSION_ID = /^[\w-]{1,255}$/;

/**
 * Where Stripe sends the buyer back. It runs the same fulfilment as the webhook (whichever comes
 * first wins, the other changes nothing), then shows the order it confirms.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const sessionId = new URL(request.url).searchParams.get("session_id")?.trim();
  if (!sessionId) return { order: null };
  // Checkout session ids are letters, digits and underscores; anything else never reaches Stripe or the database.
  if (!STRIPE_SESSION_ID.test(sessionId)) throw new Response("The session_id is not valid.", { status: 400 });
  try {
    const session = await retrieveCheckoutSession(sessionId);
    if (session) await fulfilCheckoutSession(session);
  } catch (error) {
    // The webhook will fulfil; the page must still thank the buyer.
    logger.error({ err: error, sessionId }, "fulfilment from the success page failed");
  }
  const order = await findOrderBySession(sessionId);
  if (!order) return { order: null };
  return {
    order: {
      status: order.status,
      email: order.email,
      totalCents: order.totalCents,
      kind: order.kind,
      lines: await orderLines(order),
    },
  };
}

export const headers: HeadersFunction = () => ({ "Cache-Control": "no-store" });

export default function PurchaseSuccess() {
  const { order } = useLoaderData<typeof loader>();
  const confirming = order?.status === "pending";
  return (
    <div className="flex min-h-screen flex-col">
      <SiteHeader />
      <main className="mx-auto w-full max-w-2xl flex-1 px-4 py-16 sm:px-6 sm:py-24">
        <div className="rounded-card border border-slate-200 bg-white p-6 text-center shadow-card sm:p-10">
          <CircleCheck aria-hidden="true" className="mx-auto size-16 text-emerald-600" />
          <h1 className="mt-4 text-3xl font-bold tracking-tight text-slate-950">Payment Successful!</h1>
          <p className="mt-4 text-lg text-slate-700">
            Thank you for your order. Your invoice is on its way to {order ? <strong>{order.email}</strong> : "your e-mail"}, and our team will contact you
            within 24 hours to get started.
          </p>
          {confirming ? (
            <p role="status" className="mt-4 rounded-2xl bg-amber-50 px-4 py-3 text-sm text-amber-950">
              We are still confirming your payment with the card provider. This page does not need to stay open: we e-mail you as soon as it is confirmed.
            </p>
          ) : null}
          {order ? (
            <section aria-labelledby="order-heading" className="mt-8 text-left">
              <h2 id="order-heading" className="mb-3 text-lg font-semibold text-slate-950">
                Your order
              </h2>
              <OrderSummary lines={order.lines} />
              <p className="mt-4 text-sm text-slate-600">
                We have also e-mailed you an order confirmation. New here? That e-mail brings a link to set your password, so you can follow your services in
                the dashboard.
              </p>
            </section>
          ) : null}
          <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
            <ButtonLink to="/" variant="outline" size="lg">
              <Home className="size-5" />
              Go to Home Page
            </ButtonLink>
            <ButtonLink to="/login" size="lg">
              <LayoutDashboard className="size-5" />
              View Dashboard
            </ButtonLink>
          </div>
        </div>
      </main>
      <SiteFooter />
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: "Payment successful | BrandLift" }, { name: "robots", content: "noindex" }];
