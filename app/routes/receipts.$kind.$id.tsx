import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { ArrowLeft } from "lucide-react";

import { Logo } from "~/components/ui/logo";
import { formatCents } from "~/domain/format";
import { can } from "~/domain/permissions";
import { formatDate } from "~/domain/purchase";
import { getReceiptByKey, getReceiptFor } from "~/models/receipts.server";
import { HttpError } from "~/utils/http.server";
import { getOptionalUser, requireUser } from "~/web/auth.server";

/**
 * /receipts/order/:id and /receipts/invoice/:id: our printable receipt of a paid order or a plan
 * renewal, for its customer and for staff (anyone else: 404). With Stripe, it also links Stripe's
 * hosted invoice. Printing leaves out everything but the receipt. An e-mail's link carries a signed
 * `key` and opens without a sign-in (a buyer has no password yet).
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const key = new URL(request.url).searchParams.get("key");
  const user = key ? await getOptionalUser(request) : await requireUser(request);
  try {
    const receipt = key ? await getReceiptByKey(params.kind ?? "", params.id ?? "", key) : await getReceiptFor(user!, params.kind ?? "", params.id ?? "");
    return {
      receipt: {
        ...receipt,
        paidAt: receipt.paidAt.toISOString(),
        periodStart: receipt.periodStart?.toISOString() ?? null,
        periodEnd: receipt.periodEnd?.toISOString() ?? null,
      },
      backTo: !user ? "/login" : can(user, "area:team") ? "/dashboard/users" : "/dashboard/receipts",
    };
  } catch (error) {
    if (error instanceof HttpError && error.status === 404) throw new Response("Not found", { status: 404 });
    throw error;
  }
}

export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

const money = (cents: number, currency: string) => formatCents(cents, currency);

export default function ReceiptPage() {
  const { receipt, backTo } = useLoaderData<typeof loader>();
  return (
    <main className="mx-auto max-w-2xl px-4 py-10 print:max-w-none print:p-0">
      <div className="mb-6 flex flex-wrap items-center justify-between gap-3 print:hidden">
        <Link to={backTo} className="inline-flex items-center gap-2 text-sm font-semibold text-brand-700 hover:text-brand-900">
          <ArrowLeft aria-hidden="true" className="size-4" />
          {backTo === "/login" ? "Sign in to your dashboard" : "Back to the dashboard"}
        </Link>
        {receipt.hostedUrl ? (
          <a href={receipt.hostedUrl} className="text-sm font-semibold text-brand-700 hover:text-brand-900">
            View the invoice on Stripe
          </a>
        ) : null}
      </div>
      <article aria-labelledby="receipt-heading" className="rounded-card border border-slate-200 bg-white p-8 shadow-card print:border-0 print:shadow-none">
        <div className="flex items-start justify-between gap-4">
          <Logo />
          <div className="text-right text-sm text-slate-600">
            <p>Receipt {receipt.number}</p>
            <p>
              Paid <time dateTime={receipt.paidAt}>{formatDate(receipt.paidAt)}</time>
            </p>
          </div>
        </div>
        <h1 id="receipt-heading" className="mt-8 text-2xl font-bold text-slate-950">
          Receipt
        </h1>
        <p className="mt-2 text-slate-700">
          Billed to {receipt.customer.name} &lt;{receipt.customer.email}&gt;
        </p>
        {receipt.periodStart && receipt.periodEnd ? (
          <p className="text-sm text-slate-600">
            Period {formatDate(receipt.periodStart)} – {formatDate(receipt.periodEnd)}
          </p>
        ) : null}
        <table className="mt-6 w-full text-left text-sm">
          <thead className="border-b border-slate-300 text-slate-600">
            <tr>
              <th scope="col" className="py-2 font-semibold">
                Description
              </th>
              <th scope="col" className="py-2 text-right font-semibold">
                Qty
              </th>
              <th scope="col" className="py-2 text-right font-semibold">
                Amount
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200">
            {receipt.lines.map((line, index) => (
              <tr key={index}>
                <td className="py-2">{line.description}</td>
                <td className="py-2 text-right tabular-nums">{line.quantity}</td>
                <td className="py-2 text-right tabular-nums">{money(line.amountCents * line.quantity, receipt.currency)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot className="border-t border-slate-300 font-semibold">
            <tr>
              <th scope="row" colSpan={2} className="py-2">
                Total paid
              </th>
              <td className="py-2 text-right tabular-nums">{money(receipt.totalCents, receipt.currency)}</td>
            </tr>
            {receipt.refundedCents > 0 ? (
              <tr className="text-red-700">
                <th scope="row" colSpan={2} className="py-2">
                  Refunded
                </th>
                <td className="py-2 text-right tabular-nums">−{money(receipt.refundedCents, receipt.currency)}</td>
              </tr>
            ) : null}
          </tfoot>
        </table>
        <p className="mt-8 text-xs text-slate-500">BrandLift · Thank you for your business.</p>
      </article>
      <p className="mt-6 text-center text-sm text-slate-600 print:hidden">Use your browser&apos;s Print command to print or save this receipt as a PDF.</p>
    </main>
  );
}

export const meta: MetaFunction = () => [{ title: "Receipt | BrandLift" }, { name: "robots", content: "noindex" }];
