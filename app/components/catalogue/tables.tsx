import { Form, Link } from "@remix-run/react";
import { ArrowDown, ArrowUp } from "lucide-react";

import { Badge } from "~/components/ui/badge";
import { useIsPending } from "~/components/ui/use-is-pending";
import { formatPlanPrice } from "~/domain/catalogue";
import { formatCents } from "~/domain/format";
import { formatDate } from "~/domain/purchase";
import { SERVICE_INTENTS } from "~/domain/schemas/catalogue";

/*
 * The catalogue's two tables (decision 190): services and monthly plans, one row each, every name a
 * link to its page. Phones get one card per row (six columns do not fit 390 px). A service moves
 * up or down with a plain form (works without JavaScript).
 */

export interface LastChangeView {
  at: string;
  by: string;
}

export interface ServiceRow {
  id: string;
  name: string;
  priceCents: number;
  active: boolean;
  sortOrder: number;
  packageCount: number;
  lastChange: LastChangeView | null;
}

export interface PlanRow {
  id: string;
  name: string;
  priceCents: number;
  featureCount: number;
  lastChange: LastChangeView | null;
}

const servicePage = (id: string) => `/dashboard/catalogue/services/${id}`;
const planPage = (id: string) => `/dashboard/catalogue/plans/${id}`;
const linkClass = "font-semibold text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600";
const th = "px-4 py-3 font-semibold";

function LastChange({ change, empty = "—" }: { change: LastChangeView | null; empty?: string }) {
  if (!change) return <span className="text-slate-600">{empty}</span>;
  return (
    <span className="text-slate-700">
      <time dateTime={change.at}>{formatDate(change.at)}</time> by {change.by}
    </span>
  );
}

function Status({ active }: { active: boolean }) {
  return active ? <Badge tone="success">Active</Badge> : <Badge tone="neutral">Inactive</Badge>;
}

const packagesLabel = (count: number) => (count === 3 ? "3 packages" : "None");

/** The up and down buttons of one service: one form, the button says which way. */
function MoveButtons({ service, first, last }: { service: ServiceRow; first: boolean; last: boolean }) {
  const busy = useIsPending({ field: { name: "intent", value: SERVICE_INTENTS.move } });
  const button =
    "inline-flex size-10 items-center justify-center rounded-full border border-slate-300 bg-white text-slate-800 hover:border-brand-600 hover:text-brand-700 " +
    "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 disabled:cursor-not-allowed disabled:opacity-40";
  return (
    <Form method="post" preventScrollReset className="flex items-center gap-1" aria-label={`Move ${service.name}`}>
      <input type="hidden" name="intent" value={SERVICE_INTENTS.move} />
      <input type="hidden" name="formId" value={`move-${service.id}`} />
      <input type="hidden" name="id" value={service.id} />
      <button type="submit" name="direction" value="up" disabled={first || busy} className={button} aria-label={`Move ${service.name} up`}>
        <ArrowUp className="size-4" aria-hidden="true" />
      </button>
      <button type="submit" name="direction" value="down" disabled={last || busy} className={button} aria-label={`Move ${service.name} down`}>
        <ArrowDown className="size-4" aria-hidden="true" />
      </button>
    </Form>
  );
}

export function ServicesTable({ services }: { services: ServiceRow[] }) {
  const edge = (index: number) => ({ first: index === 0, last: index === services.length - 1 });
  return (
    <>
      <ul aria-label="Services" className="divide-y divide-slate-200 rounded-card border border-slate-200 bg-white shadow-card sm:hidden">
        {services.map((service, index) => (
          <li key={service.id} id={`service-card-${service.id}`} className="space-y-2 px-4 py-3 text-sm">
            <div className="flex items-start justify-between gap-3">
              <Link to={servicePage(service.id)} className={`min-w-0 break-words ${linkClass}`}>
                {service.name}
              </Link>
              <span className="shrink-0 font-semibold text-slate-950 tabular-nums">{formatCents(service.priceCents)}</span>
            </div>
            <p className="flex flex-wrap items-center gap-2 text-slate-700">
              <Status active={service.active} />
              <span>Order {service.sortOrder}</span>
              <span aria-hidden="true">·</span>
              <span>Packages: {packagesLabel(service.packageCount)}</span>
            </p>
            <div className="flex items-center justify-between gap-3">
              <p className="text-xs">
                <LastChange change={service.lastChange} empty="Not changed yet" />
              </p>
              <MoveButtons service={service} {...edge(index)} />
            </div>
          </li>
        ))}
      </ul>
      <div className="relative overflow-x-auto rounded-card border border-slate-200 bg-white shadow-card max-sm:hidden">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Services, in the order the landing page shows them</caption>
          <thead className="bg-slate-50 text-slate-700">
            <tr>
              <th scope="col" className={th}>
                Name
              </th>
              <th scope="col" className={`${th} text-right`}>
                Price
              </th>
              <th scope="col" className={th}>
                Status
              </th>
              <th scope="col" className={th}>
                Display order
              </th>
              <th scope="col" className={th}>
                Packages
              </th>
              <th scope="col" className={th}>
                Last change
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200">
            {services.map((service, index) => (
              <tr key={service.id} id={`service-${service.id}`} data-testid="service-row">
                <th scope="row" className="px-4 py-2 font-normal">
                  <Link to={servicePage(service.id)} className={linkClass}>
                    {service.name}
                  </Link>
                </th>
                <td className="px-4 py-2 text-right font-semibold whitespace-nowrap text-slate-950 tabular-nums">{formatCents(service.priceCents)}</td>
                <td className="px-4 py-2">
                  <Status active={service.active} />
                </td>
                <td className="px-4 py-2">
                  <div className="flex items-center gap-3">
                    <span className="w-8 text-right text-slate-900 tabular-nums">{service.sortOrder}</span>
                    <MoveButtons service={service} {...edge(index)} />
                  </div>
                </td>
                <td className="px-4 py-2 whitespace-nowrap text-slate-700">{packagesLabel(service.packageCount)}</td>
                <td className="px-4 py-2">
                  <LastChange change={service.lastChange} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

export function PlansTable({ plans }: { plans: PlanRow[] }) {
  return (
    <>
      <ul aria-label="Monthly plans" className="divide-y divide-slate-200 rounded-card border border-slate-200 bg-white shadow-card sm:hidden">
        {plans.map((plan) => (
          <li key={plan.id} className="space-y-1 px-4 py-3 text-sm">
            <div className="flex items-start justify-between gap-3">
              <Link to={planPage(plan.id)} className={`min-w-0 break-words ${linkClass}`}>
                {plan.name}
              </Link>
              <span className="shrink-0 font-semibold text-slate-950 tabular-nums">{formatPlanPrice(plan)}</span>
            </div>
            <p className="text-slate-700">{plan.featureCount} features</p>
            <p className="text-xs">
              <LastChange change={plan.lastChange} empty="Not changed yet" />
            </p>
          </li>
        ))}
      </ul>
      <div className="relative overflow-x-auto rounded-card border border-slate-200 bg-white shadow-card max-sm:hidden">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Monthly plans</caption>
          <thead className="bg-slate-50 text-slate-700">
            <tr>
              <th scope="col" className={th}>
                Name
              </th>
              <th scope="col" className={`${th} text-right`}>
                Price
              </th>
              <th scope="col" className={th}>
                Features
              </th>
              <th scope="col" className={th}>
                Last change
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200">
            {plans.map((plan) => (
              <tr key={plan.id} data-testid="plan-row">
                <th scope="row" className="px-4 py-3 font-normal">
                  <Link to={planPage(plan.id)} className={linkClass}>
                    {plan.name}
                  </Link>
                </th>
                <td className="px-4 py-3 text-right font-semibold whitespace-nowrap text-slate-950 tabular-nums">{formatPlanPrice(plan)}</td>
                <td className="px-4 py-3 text-slate-700">{plan.featureCount}</td>
                <td className="px-4 py-3">
                  <LastChange change={plan.lastChange} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
