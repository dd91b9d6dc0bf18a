import type { MetaFunction } from "@remix-run/node";
import { CircleX, Home } from "lucide-react";

import { SiteFooter } from "~/components/landing/site-footer";
import { SiteHeader } from "~/components/landing/site-header";
import { ButtonLink } from "~/components/ui/button";

/** Where Stripe sends a buyer who backs out. The order stays pending until Stripe expires the session. */
export default function PurchaseCancel() {
  return (
    <div className="flex min-h-screen flex-col">
      <SiteHeader />
      <main className="mx-auto w-full max-w-2xl flex-1 px-4 py-16 sm:px-6 sm:py-24">
        <div className="rounded-card border border-slate-200 bg-white p-6 text-center shadow-card sm:p-10">
          <CircleX aria-hidden="true" className="mx-auto size-16 text-slate-500" />
          <h1 className="mt-4 text-3xl font-bold tracking-tight text-slate-950">Payment Cancelled by You</h1>
          <p className="mt-4 text-lg text-slate-700">
            No charge was made to your card. Your selection is not lost for good: you can start again from the home page whenever you are ready, or send us a
            question first.
          </p>
          <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
            <ButtonLink to="/" size="lg">
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
