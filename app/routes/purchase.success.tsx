import { data, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { CircleCheck, CircleHelp, CircleX, Clock, Home, LayoutDashboard } from "lucide-react";

import { BriefsNeeded } from "~/components/brief/briefs-needed";
import { SiteFooter } from "~/components/landing/site-footer";
import { SiteHeader } from "~/components/landing/site-header";
import { OrderSummary } from "~/components/order/order-summary";
import { ButtonLink } from "~/components/ui/button";
import type { OrderStatus } from "~/domain/status";
import { listBriefsNeeded } from "~/models/briefs.server";
import { findOrderBySession, fulfilCheckoutSession, orderLines, retrieveCheckoutSession } from "~/models/orders.server";
import { logger } from "~/utils/logger.server";
import { getOptionalUser } from "~/web/auth.server";

const STRIPE_SESSION_ID = /^[\w-]{1,255}$/;

/** What the page can truthfully say about a checkout: only money that came in is a success. */
type Outcome = "paid" | "confirming" | "not-paid" | "unknown";

function outcomeOf(status: OrderStatus): Outcome {
  if (status === "pending") return "confirming";
  return status === "cancelled" || status === "failed" ? "not-paid" : "paid";
}

/**
 * Where Stripe sends the buyer back. It runs the same fulfilment as the webhook (whichever comes
 * first wins, the other changes nothing), then shows the order it confirms.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const sessionId = new URL(request.url).searchParams.get("session_id")?.trim();
  // A signed-in customer is sent to their dashboard, and is not asked to set a password they have.
  const viewer = await getOptionalUser(request);
  const user = viewer ? { name: viewer.name, email: viewer.email } : null;
  if (!sessionId) return data({ outcome: "unknown" as Outcome, order: null, briefs: [], user }, { status: 404 });
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
  if (!order) return data({ outcome: "unknown" as Outcome, order: null, briefs: [], user }, { status: 404 });
  const outcome = outcomeOf(order.status);
  return {
    outcome,
    user,
    // Each purchase or plan of this order whose brief is still to answer (its link asks the buyer to sign in first).
    briefs: outcome === "paid" ? await listBriefsNeeded({ orderId: order.id }) : [],
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

const HEADINGS: Record<Outcome, string> = {
  paid: "Payment Successful!",
  confirming: "Confirming Your Payment",
  "not-paid": "Payment Not Completed",
  unknown: "Payment Not Found",
};

export default function PurchaseSuccess() {
  const { outcome, order, briefs, user } = useLoaderData<typeof loader>();
  const Icon = outcome === "paid" ? CircleCheck : outcome === "confirming" ? Clock : outcome === "not-paid" ? CircleX : CircleHelp;
  return (
    <div className="flex min-h-screen flex-col">
      <SiteHeader />
      <main className="mx-auto w-full max-w-2xl flex-1 px-4 py-16 sm:px-6 sm:py-24">
        <div className="rounded-card border border-slate-200 bg-white p-6 text-center shadow-card sm:p-10">
          <Icon aria-hidden="true" className={outcome === "paid" ? "mx-auto size-16 text-emerald-600" : "mx-auto size-16 text-slate-500"} />
          <h1 className="mt-4 text-3xl font-bold tracking-tight text-slate-950">{HEADINGS[outcome]}</h1>
          {outcome === "paid" && order ? (
            <p className="mt-4 text-lg text-slate-700">
              Thank you for your order. Your invoice is on its way to <strong>{order.email}</strong>, and our team will contact you within 24 hours to get
              started.
            </p>
          ) : null}
          {outcome === "confirming" && order ? (
            <p role="status" className="mt-4 text-lg text-slate-700">
              We are still confirming your payment with the card provider. This page does not need to stay open: we e-mail <strong>{order.email}</strong> as
              soon as it is confirmed.
            </p>
          ) : null}
          {outcome === "not-paid" ? (
            <p className="mt-4 text-lg text-slate-700">
              This checkout was not paid, and no charge was made to your card. You can start again from the home page.
            </p>
          ) : null}
          {outcome === "unknown" ? (
            <p className="mt-4 text-lg text-slate-700">
              This link does not match any payment of ours, so nothing was charged through it. If you have paid, your order confirmation e-mail has the details;
              if something looks wrong, send us a message.
            </p>
          ) : null}
          {briefs.length > 0 ? (
            <div className="mt-8">
              <BriefsNeeded briefs={briefs} />
            </div>
          ) : null}
          {order && outcome !== "not-paid" ? (
            <section aria-labelledby="order-heading" className="mt-8 text-left">
              <h2 id="order-heading" className="mb-3 text-lg font-semibold text-slate-950">
                Your order
              </h2>
              <OrderSummary lines={order.lines} />
              <p className="mt-4 text-sm text-slate-600">
                {user
                  ? "We have also e-mailed you an order confirmation. Your dashboard shows this order and its services as they progress."
                  : "We have also e-mailed you an order confirmation. New here? That e-mail brings a link to set your password, so you can follow your services in the dashboard."}
              </p>
            </section>
          ) : null}
          <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
            <ButtonLink to="/" variant="outline" size="lg">
              <Home className="size-5" />
              Go to Home Page
            </ButtonLink>
            {outcome === "paid" || outcome === "confirming" ? (
              <ButtonLink to={user ? "/dashboard" : "/login"} size="lg">
                <LayoutDashboard className="size-5" />
                View Dashboard
              </ButtonLink>
            ) : (
              <ButtonLink to="/#contact" size="lg">
                Contact us
              </ButtonLink>
            )}
          </div>
        </div>
      </main>
      <SiteFooter />
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data ? HEADINGS[data.outcome].replace("!", "") : "Payment"} | BrandLift` },
  { name: "robots", content: "noindex" },
];
