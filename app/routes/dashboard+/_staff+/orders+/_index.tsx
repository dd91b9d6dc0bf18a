import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useSearchParams } from "@remix-run/react";

import { ListFilterStatus } from "~/components/dashboard/list-filter-status";
import { OrderStatusBadge } from "~/components/dashboard/order-status-badge";
import { Button, ButtonLink } from "~/components/ui/button";
import { EmptyState } from "~/components/ui/empty-state";
import { Download, Filter, ShoppingCart } from "~/components/ui/icons";
import { Field, Input, Select } from "~/components/ui/input";
import { Pager } from "~/components/ui/pager";
import { SectionBoundary } from "~/components/ui/section-error";
import { countOf, formatCents } from "~/domain/format";
import { API_ORDER_STATUSES, ORDER_STATUS_LABELS } from "~/domain/order-status";
import { formatDate } from "~/domain/purchase";
import { filterDates, orderListQuerySchema } from "~/domain/schemas/ops";
import { listOrders, ORDERS_PAGE_SIZE } from "~/models/orders-list.server";
import { requireTeam } from "~/web/auth.server";

/**
 * /dashboard/orders?status=&search=&from=&to=&page=: every order and payment, newest first, for
 * staff; a filter the schema refuses shows its message and the unfiltered list.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireTeam(request);
  // A filter form sends its empty fields ("All statuses", no dates) as "": they mean no filter.
  const raw = Object.fromEntries([...new URL(request.url).searchParams].filter(([, value]) => value !== ""));
  const parsed = orderListQuerySchema.safeParse({ ...raw, limit: ORDERS_PAGE_SIZE });
  const query = parsed.success ? parsed.data : orderListQuerySchema.parse({ limit: ORDERS_PAGE_SIZE });
  const { orders, total } = await listOrders({ ...query, ...filterDates(query) });
  return {
    // What a row shows, nothing more: the page carries its data to the browser.
    orders: orders.map((order) => ({
      id: order.id,
      name: order.name,
      email: order.email,
      client: order.client,
      amountCents: order.amountCents,
      refundedCents: order.refundedCents,
      currency: order.currency,
      status: order.status,
      createdAt: order.createdAt,
      lines: order.lines.map((line) => ({ service: { name: line.service.name } })),
      // Which orders are a plan's renewals (and of which plan).
      kind: order.kind,
      renewal: order.renewal,
      subscriptionId: order.subscriptionId,
    })),
    total,
    page: query.page,
    pages: Math.max(1, Math.ceil(total / ORDERS_PAGE_SIZE)),
    filter: { status: query.status ?? "", search: query.search ?? "", from: query.from ?? "", to: query.to ?? "" },
    filterError: parsed.success ? null : (parsed.error.issues[0]?.message ?? "Invalid filter."),
  };
}

type OrdersData = ReturnType<typeof useLoaderData<typeof loader>>;

export default function OrdersTab() {
  return <OrdersView {...useLoaderData<typeof loader>()} />;
}

function OrdersView({ orders, total, page, pages, filter, filterError }: OrdersData) {
  const [params] = useSearchParams();
  const exportQuery = new URLSearchParams(Object.entries(filter).filter(([, v]) => v) as [string, string][]);
  return (
    <section aria-labelledby="orders-heading" className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h2 id="orders-heading" className="text-xl font-bold text-slate-950">
          Orders and payments
        </h2>
        <ButtonLink to={`/dashboard/orders/export.csv?${exportQuery}`} reloadDocument variant="outline" size="sm">
          <Download className="size-4" aria-hidden="true" />
          Export CSV
        </ButtonLink>
      </div>
      <Form
        method="get"
        className="grid gap-3 rounded-card border border-slate-200 bg-white p-4 shadow-card sm:grid-cols-2 lg:grid-cols-5"
        aria-label="Filter orders"
      >
        <Field id="order-search" label="Search by e-mail or name" className="lg:col-span-2">
          <Input id="order-search" type="search" name="search" defaultValue={filter.search} placeholder="name@example.com" key={filter.search} />
        </Field>
        <Field id="order-status" label="Status">
          <Select id="order-status" name="status" defaultValue={filter.status} key={filter.status}>
            <option value="">All statuses</option>
            {API_ORDER_STATUSES.map((status) => (
              <option key={status} value={status}>
                {ORDER_STATUS_LABELS[status]}
              </option>
            ))}
          </Select>
        </Field>
        <Field id="order-from" label="From">
          <Input id="order-from" type="date" name="from" defaultValue={filter.from} key={`from-${filter.from}`} />
        </Field>
        <Field id="order-to" label="To">
          <Input id="order-to" type="date" name="to" defaultValue={filter.to} key={`to-${filter.to}`} />
        </Field>
        <div className="flex items-end gap-2 sm:col-span-2 lg:col-span-5">
          <Button type="submit" variant="outline" size="sm">
            <Filter className="size-4" aria-hidden="true" />
            Apply filters
          </Button>
          <ButtonLink to="/dashboard/orders" variant="ghost" size="sm">
            Clear
          </ButtonLink>
        </div>
      </Form>
      <ListFilterStatus error={filterError} count={countOf(total, "order")} />
      {orders.length === 0 ? (
        Object.values(filter).some(Boolean) ? (
          <EmptyState
            icon={Filter}
            title="No orders match these filters"
            text="Try another search, status or date range."
            action={
              <ButtonLink to="/dashboard/orders" variant="outline" size="sm">
                Clear filters
              </ButtonLink>
            }
          />
        ) : (
          <EmptyState icon={ShoppingCart} title="No orders yet" text="Orders appear here as soon as someone starts a checkout." />
        )
      ) : (
        // One rendering: a table from sm; on phones each row is a card (six columns do not fit 390 px),
        // the header row is kept for screen readers. `relative`: the screen-reader-only text stays inside the scroll box.
        <div className="relative overflow-x-auto rounded-card border border-slate-200 bg-white shadow-card">
          <table aria-label="Orders" className="table-cards w-full text-left text-sm">
            <thead className="bg-slate-50 text-xs tracking-wide text-slate-600 uppercase max-sm:sr-only">
              <tr>
                <th scope="col" className="px-4 py-3">
                  Date
                </th>
                <th scope="col" className="px-4 py-3">
                  Customer
                </th>
                <th scope="col" className="px-4 py-3">
                  What
                </th>
                <th scope="col" className="px-4 py-3 text-right">
                  Amount
                </th>
                <th scope="col" className="px-4 py-3">
                  Status
                </th>
                <th scope="col" className="px-4 py-3">
                  <span className="sr-only">Details</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-200">
              {orders.map((order) => (
                <tr key={order.id}>
                  <td className="order-4 text-slate-700 sm:whitespace-nowrap">{formatDate(order.createdAt)}</td>
                  <td className="order-1 min-w-0">
                    <p className="font-semibold break-words text-slate-950">{order.name}</p>
                    <p className="break-all text-slate-600">{order.email}</p>
                    <OrderClient client={order.client} buyer={order.name} />
                  </td>
                  <td className="order-3 col-span-2 text-slate-700">{order.lines.map((line) => line.service.name).join(", ")}</td>
                  <td className="order-2 text-right whitespace-nowrap">
                    <span className="font-semibold text-slate-950">{formatCents(order.amountCents, order.currency)}</span>
                    {order.refundedCents > 0 ? (
                      <span className="block text-xs text-red-700">−{formatCents(order.refundedCents, order.currency)} refunded</span>
                    ) : null}
                  </td>
                  <td className="order-5 max-sm:text-right">
                    <OrderStatusBadge status={order.status} />
                  </td>
                  <td className="order-6 col-span-2 text-right">
                    <Link
                      to={`/dashboard/orders/${order.id}`}
                      className="inline-flex min-h-11 items-center font-semibold text-brand-700 hover:underline sm:min-h-0"
                    >
                      View<span className="sr-only"> order of {order.name}</span>
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager page={page} pages={pages} path="/dashboard/orders" keep={Object.fromEntries(params)} />
    </section>
  );
}

/** The buyer's client (decision 295), when it is named otherwise than the buyer. */
function OrderClient({ client, buyer }: { client: { name: string } | null; buyer: string }) {
  if (!client || client.name === buyer) return null;
  return (
    <p className="text-slate-700" data-testid="order-client">
      Client <span className="font-semibold">{client.name}</span>
    </p>
  );
}

export const meta: MetaFunction = () => [{ title: "Orders — BrandLift dashboard" }];

export function ErrorBoundary() {
  return <SectionBoundary<OrdersData> index message="Failed to load orders" render={(data) => <OrdersView {...data} />} />;
}
