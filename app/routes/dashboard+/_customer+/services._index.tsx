import { redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useLocation, useRevalidator } from "@remix-run/react";

import { PlanOverview } from "~/components/billing/plan-overview";
import { BriefBadge, BriefsNeeded } from "~/components/brief/briefs-needed";
import { Overview, type OverviewCounts } from "~/components/dashboard/overview";
import { Badge, StatusBadge } from "~/components/ui/badge";
import { ButtonLink } from "~/components/ui/button";
import { EmptyState } from "~/components/ui/empty-state";
import { ArrowRight, ShoppingBag } from "~/components/ui/icons";
import { SectionBoundary, SectionError } from "~/components/ui/section-error";
import { formatCents } from "~/domain/format";
import { can, ownerKey } from "~/domain/permissions";
import { formatDate, type Purchase } from "~/domain/purchase";
import { listBriefsNeeded } from "~/models/briefs.server";
import { listPurchasesForUser, toPurchase } from "~/models/purchases.server";
import { getCustomerCounts } from "~/models/stats.server";
import { listSubscriptionsForUser, toSubscriptions } from "~/models/subscriptions.server";
import { markWelcomed } from "~/models/users.server";
import { requireMemberPage } from "~/web/guards.server";
import { loadSection } from "~/web/sections.server";

/**
 * /dashboard/services: the customer's overview, where /dashboard leads: the welcome, briefs still
 * to answer, the counts, their plans and their purchased services. The counts and the plan card
 * live here only (decision 280): every other page starts with its own content. Each part is read
 * on its own, so a failed one shows its error and the rest stays. Staff have no purchases: their
 * tab is Users.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireMemberPage(request, "purchases:list-own");
  const owner = ownerKey(user);
  if (!can(user, "purchases:list-own")) throw redirect("/dashboard/users");
  const [firstVisit, counts, purchases, plans, briefs] = await Promise.all([
    // The identity carries when the account was welcomed: only a visit before that writes.
    user.welcomedAt ? false : markWelcomed(user.id),
    loadSection<OverviewCounts>("overview", async () => ({ role: "user", ...(await getCustomerCounts(owner)) })),
    loadSection("purchases", async () => (await listPurchasesForUser(owner)).map((row) => purchaseCard(toPurchase(row)))),
    loadSection("plan", async () => toSubscriptions(await listSubscriptionsForUser(owner))),
    // "Brief needed" for each purchase or plan whose brief is still to send (decision 201).
    loadSection("briefs", () => listBriefsNeeded({ userId: owner })),
  ]);
  return {
    firstName: user.name.split(" ")[0] ?? "",
    firstVisit,
    counts,
    purchases,
    // The plan card and the briefs are extras: without them the page simply shows none.
    plans: plans.ok ? plans.data : [],
    briefs: briefs.ok ? briefs.data : [],
  };
}

/** What a purchase's card shows: the service's description, its assignee and its checkout stay on its own page. */
function purchaseCard({ id, amountCents, currency, quantity, status, createdAt, service, brief }: Purchase) {
  return { id, amountCents, currency, quantity, status, createdAt, service: { name: service.name }, brief };
}

type ServicesData = ReturnType<typeof useLoaderData<typeof loader>>;

export default function Services() {
  return <ServicesView {...useLoaderData<typeof loader>()} />;
}

function ServicesView({ firstName, firstVisit, counts, purchases, plans, briefs }: ServicesData) {
  return (
    <div className="space-y-8">
      <header>
        <h1 className="text-2xl font-bold tracking-tight text-slate-950 sm:text-3xl">
          {firstVisit ? "Welcome" : "Welcome back"}, {firstName}
        </h1>
        <p className="mt-1 text-slate-600">Your services, reports and messages in one place.</p>
      </header>
      <BriefsNeeded briefs={briefs} />
      <Overview counts={counts} />
      {plans.length > 0 ? <PlanOverview plans={plans} /> : null}
      <PurchasedServices purchases={purchases} hasPlan={plans.length > 0} />
    </div>
  );
}

function PurchasedServices({ purchases: section, hasPlan }: { purchases: ServicesData["purchases"]; hasPlan: boolean }) {
  const location = useLocation();
  const revalidator = useRevalidator();
  if (!section.ok) {
    return (
      <section aria-labelledby="services-heading">
        <h2 id="services-heading" className="sr-only">
          Purchased Services
        </h2>
        <SectionError
          title="Error Loading Services"
          message="Failed to load purchased services"
          headingLevel="h3"
          retryHref={`${location.pathname}${location.search}`}
          onRetry={() => void revalidator.revalidate()}
          retrying={revalidator.state !== "idle"}
        />
      </section>
    );
  }
  const purchases = section.data;
  return (
    <section aria-labelledby="services-heading" className="space-y-4">
      <h2 id="services-heading" className="text-xl font-bold text-slate-950">
        Purchased Services
      </h2>
      {purchases.length === 0 && hasPlan ? (
        // A subscriber without one-off purchases: their reports and messages are under their plan.
        <p className="rounded-card border border-dashed border-slate-300 bg-white px-5 py-6 text-sm text-slate-600">
          No one-off services yet. Your plan&apos;s reports and messages are under <strong>Open plan</strong> above.
        </p>
      ) : purchases.length === 0 ? (
        <EmptyState
          icon={ShoppingBag}
          title="No Purchased Services"
          text="When you buy a service it appears here, with its reports and a line to our team."
          action={<ButtonLink to="/#a-la-carte">Browse services</ButtonLink>}
        />
      ) : (
        <ul className="grid gap-4 md:grid-cols-2">
          {purchases.map((purchase) => (
            <li key={purchase.id} className="flex flex-col gap-4 rounded-card border border-slate-200 bg-white p-5 shadow-card">
              <div className="flex items-start justify-between gap-3">
                <div className="min-w-0">
                  <h3 className="text-lg font-semibold text-slate-950">{purchase.service.name}</h3>
                  <p className="text-sm text-slate-600">
                    Purchased <time dateTime={purchase.createdAt}>{formatDate(purchase.createdAt)}</time>
                  </p>
                </div>
                <p className="text-lg font-bold text-slate-950 tabular-nums">{formatCents(purchase.amountCents, purchase.currency)}</p>
              </div>
              <div className="flex flex-wrap items-center gap-2">
                <StatusBadge status={purchase.status} />
                {purchase.quantity > 1 ? <Badge tone="brand">Qty {purchase.quantity}</Badge> : null}
                <BriefBadge brief={purchase.brief} />
              </div>
              <Link
                to={`/dashboard/services/${purchase.id}`}
                prefetch="intent"
                className="mt-auto inline-flex items-center gap-2 self-start rounded-full text-sm font-semibold text-brand-700 hover:text-brand-900 focus-visible:outline-2 focus-visible:outline-brand-600"
              >
                View Details
                <ArrowRight className="size-4" aria-hidden="true" />
                <span className="sr-only">of {purchase.service.name}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The overview brings its own h1 (the welcome); the layout names other pages for screen readers. */
export const handle = { overview: true };

export const meta: MetaFunction = () => [{ title: "Services — BrandLift dashboard" }];

/** The spec's error state 'Error Loading Services' with Retry, which reloads only this list (a GET without JavaScript). */
export function ErrorBoundary() {
  return (
    <SectionBoundary<ServicesData>
      index
      title="Error Loading Services"
      message="Failed to load purchased services"
      render={(data) => <ServicesView {...data} />}
    />
  );
}
