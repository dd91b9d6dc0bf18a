import { redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { Receipt } from "lucide-react";

import { EmptyState } from "~/components/ui/empty-state";
import { formatCents } from "~/domain/format";
import { can, ownerKey } from "~/domain/permissions";
import { formatDate } from "~/domain/purchase";
import { listPlans } from "~/models/catalogue.server";
import { listReceiptsForUser } from "~/models/receipts.server";
import { listSubscriptionsForUser } from "~/models/subscriptions.server";
import { requireMemberPage } from "~/web/guards.server";

/** /dashboard/receipts: every paid order and plan renewal with its date, amount and receipt. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireMemberPage(request, "billing:manage");
  if (!can(user, "subscriptions:list-own")) throw redirect("/dashboard/users");
  const [receipts, plans] = await Promise.all([listReceiptsForUser(ownerKey(user)), listSubscriptionsForUser(ownerKey(user))]);
  // A billing member has no Services page: their client's plans are reached from here.
  if (can(user, "purchases:list-own") || plans.length === 0) return { receipts, plans: [] };
  // Each plan by the name the catalogue and its receipts give it ("Starter Package"), never its key.
  const names = new Map((await listPlans()).map((plan) => [plan.key, plan.name]));
  return { receipts, plans: plans.map((plan) => ({ id: plan.id, name: names.get(plan.planId) ?? plan.planId, status: plan.status })) };
}

export default function Receipts() {
  const { receipts, plans } = useLoaderData<typeof loader>();
  return (
    <>
      {plans.length > 0 ? (
        <section aria-labelledby="plans-heading" className="space-y-3">
          <h2 id="plans-heading" className="text-xl font-bold text-slate-950">
            Plans
          </h2>
          <ul className="divide-y divide-slate-200 rounded-card border border-slate-200 bg-white shadow-card">
            {plans.map((plan) => (
              <li key={plan.id} className="flex items-center justify-between gap-4 px-5 py-3 text-sm">
                <span>
                  <span className="font-semibold text-slate-950">{plan.name}</span> · {plan.status.replace("_", " ")}
                </span>
                <Link to={`/dashboard/plans/${plan.id}`} className="font-semibold text-brand-700 underline-offset-2 hover:underline">
                  Manage<span className="sr-only"> {plan.name}</span>
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <section aria-labelledby="receipts-heading" className="space-y-4">
        <h2 id="receipts-heading" className="text-xl font-bold text-slate-950">
          Receipts
        </h2>
        {receipts.length === 0 ? (
          <EmptyState icon={Receipt} title="No receipts yet" text="Every payment you make appears here with its receipt." />
        ) : (
          // `relative`: the screen-reader-only text in the cells stays inside the scroll box (it never widens the page).
          <div className="relative overflow-x-auto rounded-card border border-slate-200 bg-white shadow-card">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Your payments</caption>
              <thead className="bg-slate-50 text-slate-600">
                <tr>
                  {/* Phones: the date goes under "What", so the receipt link stays on screen. */}
                  <th scope="col" className="px-5 py-3 font-semibold max-sm:hidden">
                    Date
                  </th>
                  <th scope="col" className="px-3 py-3 font-semibold sm:px-5">
                    What
                  </th>
                  <th scope="col" className="px-3 py-3 text-right font-semibold sm:px-5">
                    Amount
                  </th>
                  <th scope="col" className="px-3 py-3 font-semibold sm:px-5">
                    <span className="sr-only">Receipt</span>
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-200">
                {receipts.map((receipt) => (
                  <tr key={`${receipt.kind}-${receipt.id}`}>
                    <td className="px-5 py-3 whitespace-nowrap max-sm:hidden">
                      <time dateTime={receipt.paidAt}>{formatDate(receipt.paidAt)}</time>
                    </td>
                    <td className="px-3 py-3 sm:px-5">
                      <time dateTime={receipt.paidAt} className="block text-xs text-slate-600 sm:hidden">
                        {formatDate(receipt.paidAt)}
                      </time>
                      {receipt.description}
                      {receipt.refundedCents > 0 ? (
                        <span className="ml-2 text-red-700">({formatCents(receipt.refundedCents, receipt.currency)} refunded)</span>
                      ) : null}
                    </td>
                    <td className="px-3 py-3 text-right font-semibold tabular-nums sm:px-5">{formatCents(receipt.amountCents, receipt.currency)}</td>
                    <td className="px-3 py-3 text-right sm:px-5">
                      <a href={receipt.url} className="font-semibold text-brand-700 hover:text-brand-900">
                        View receipt<span className="sr-only"> of {formatDate(receipt.paidAt)}</span>
                      </a>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "Receipts — BrandLift dashboard" }];
