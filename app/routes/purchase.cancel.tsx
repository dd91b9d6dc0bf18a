import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { CircleX, Home, RotateCcw } from "lucide-react";

import { SiteFooter } from "~/components/landing/site-footer";
import { SiteHeader } from "~/components/landing/site-header";
import { ButtonLink } from "~/components/ui/button";
import { isUuid } from "~/domain/ids";
import { selectionOf } from "~/models/orders.server";

/**
 * Where Stripe (or the test checkout) sends a buyer who backs out, with `?order=`: the page names
 * what they had chosen and links back to the landing page with it ticked again. The order stays
 * pending until Stripe expires the session.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const orderId = new URL(request.url).searchParams.get("order") ?? "";
  return { selection: isUuid(orderId) ? await selectionOf(orderId) : null };
}

export const headers: HeadersFunction = () => ({ "Cache-Control": "no-store" });

export default function PurchaseCancel() {
  const { selection } = useLoaderData<typeof loader>();
  return (
    <div className="flex min-h-screen flex-col">
      <SiteHeader />
      <main className="mx-auto w-full max-w-2xl flex-1 px-4 py-16 sm:px-6 sm:py-24">
        <div className="rounded-card border border-slate-200 bg-white p-6 text-center shadow-card sm:p-10">
          <CircleX aria-hidden="true" className="mx-auto size-16 text-slate-500" />
          <h1 className="mt-4 text-3xl font-bold tracking-tight text-slate-950">Payment Cancelled by You</h1>
          <p className="mt-4 text-lg text-slate-700">
            No charge was made to your card.{" "}
            {selection
              ? "Your selection is not lost: pick up where you left off whenever you are ready, or send us a question first."
              : "You can start again from the home page whenever you are ready, or send us a question first."}
          </p>
          {selection ? (
            <section aria-labelledby="selection-heading" className="mt-6 rounded-2xl bg-slate-50 p-4 text-left">
              <h2 id="selection-heading" className="text-sm font-semibold text-slate-950">
                Your selection
              </h2>
              <ul className="mt-2 list-inside list-disc text-sm text-slate-700">
                {selection.names.map((name) => (
                  <li key={name}>{name}</li>
                ))}
              </ul>
            </section>
          ) : null}
          <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
            {selection ? (
              <ButtonLink to={selection.href} reloadDocument size="lg">
                <RotateCcw className="size-5" />
                Back to your selection
              </ButtonLink>
            ) : null}
            <ButtonLink to="/" variant={selection ? "outline" : "primary"} size="lg">
              <Home className="size-5" />
              Go to Home Page
            </ButtonLink>
            <ButtonLink to="/#contact" variant="outline" size="lg">
              Ask us a question
            </ButtonLink>
          </div>
        </div>
      </main>
      <SiteFooter />
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: "Payment cancelled | BrandLift" }, { name: "robots", content: "noindex" }];
