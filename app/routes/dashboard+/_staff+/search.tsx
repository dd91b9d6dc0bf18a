import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, Link, useLoaderData } from "@remix-run/react";

import { PageHeader } from "~/components/dashboard/page-header";
import { SearchResults } from "~/components/search/search-results";
import { SearchForm } from "~/components/ui/search-form";
import { formatCents } from "~/domain/format";
import { ORDER_STATUS_LABELS, toApiOrderStatus } from "~/domain/order-status";
import { SEARCH_GROUP_LIMIT, SEARCH_MAX_LENGTH, searchProblem, type SearchAnswer, type SearchGroups } from "~/domain/search";
import { searchWorkspace, type SearchRows } from "~/models/search.server";
import { requireTeam } from "~/web/auth.server";

/*
 * /dashboard/search?q= (staff, decision 191): customers, orders, conversations and services
 * matching the words, each a link. A plain GET form without JavaScript; Ctrl+K / ⌘K opens the
 * same search as a palette (components/search/search-palette.tsx), which reads this loader.
 */

const moreLink = "font-semibold text-brand-700 underline hover:text-brand-800";
const snippet = (text: string | null) => (text && text.length > 90 ? `${text.slice(0, 89)}…` : (text ?? "No messages yet"));

function toGroups(rows: SearchRows): SearchGroups {
  return {
    customers: rows.customers.map((c) => ({
      id: c.id,
      href: `/dashboard/users/${c.id}`,
      title: c.name,
      detail: c.disabled ? `${c.email} · disabled` : c.email,
      client: { id: c.clientId, name: c.clientName },
    })),
    orders: rows.orders.map((order) => ({
      id: order.id,
      href: `/dashboard/orders/${order.id}`,
      title: `BL-${order.id.slice(0, 8).toUpperCase()} · ${order.name}`,
      detail: `${order.email} · ${formatCents(order.totalCents, order.currency)} · ${ORDER_STATUS_LABELS[toApiOrderStatus(order.status)]}`,
    })),
    threads: rows.threads.map((thread) => ({
      id: thread.id,
      // A customer's thread is named by the account, a visitor's by the thread itself (decision 096).
      href: `/dashboard/inbox/${thread.customerId ?? thread.id}`,
      title: thread.customerName ?? (thread.visitorName || thread.visitorEmail || "Visitor"),
      detail: `${thread.status === "closed" ? "Closed" : "Open"} · ${snippet(thread.lastMessage)}`,
      ...(thread.customerId ? { client: { id: thread.customerId, name: thread.clientName ?? thread.customerName ?? "" } } : {}),
    })),
    services: rows.services.map((service) => ({
      id: service.id,
      href: `/dashboard/catalogue/services/${service.id}`,
      title: service.name,
      detail: `${formatCents(service.priceCents, service.currency)} · ${service.active ? "Active" : "Inactive"}`,
    })),
  };
}

export async function loader({ request }: LoaderFunctionArgs) {
  await requireTeam(request);
  const q = (new URL(request.url).searchParams.get("q") ?? "").trim();
  const problem = q ? searchProblem(q) : null;
  const groups = q && !problem ? toGroups(await searchWorkspace(q, SEARCH_GROUP_LIMIT)) : null;
  // The palette's fetcher reads this answer as SearchAnswer: the loader is held to it.
  return data<SearchAnswer>({ q, problem: problem?.message ?? null, groups }, { status: problem?.refused ? 400 : 200 });
}

export default function SearchPage() {
  const { q, problem, groups } = useLoaderData<typeof loader>();
  return (
    <div className="space-y-6">
      <PageHeader
        id="search-heading"
        title="Search"
        description={
          <>
            Customers, orders, conversations and services. Press <kbd className="rounded border border-slate-300 px-1 text-sm">Ctrl</kbd>{" "}
            <kbd className="rounded border border-slate-300 px-1 text-sm">K</kbd> (<kbd className="rounded border border-slate-300 px-1 text-sm">⌘</kbd>{" "}
            <kbd className="rounded border border-slate-300 px-1 text-sm">K</kbd> on a Mac) anywhere in the dashboard.
          </>
        }
      />
      <SearchForm
        action="/dashboard/search"
        id="workspace-search"
        name="q"
        label="Search customers, orders, conversations and services"
        placeholder="Name, e-mail, BL- number, words of a message"
        value={q}
        maxLength={SEARCH_MAX_LENGTH}
        className="max-w-2xl"
      />
      {problem ? (
        <p role="alert" className="font-semibold text-red-700">
          {problem}
        </p>
      ) : null}
      {groups ? <SearchResults q={q} groups={groups} /> : null}
      {groups ? (
        <p className="text-sm text-slate-600">
          Up to {SEARCH_GROUP_LIMIT} of each; the lists have the rest:{" "}
          <Link to={`/dashboard/users?search=${encodeURIComponent(q)}`} className={moreLink}>
            users
          </Link>
          ,{" "}
          <Link to={`/dashboard/orders?search=${encodeURIComponent(q)}`} className={moreLink}>
            orders
          </Link>
          ,{" "}
          <Link to={`/dashboard/inbox?search=${encodeURIComponent(q)}`} className={moreLink}>
            inbox
          </Link>
          .
        </p>
      ) : null}
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.q ? `“${data.q}” | Search | BrandLift` : "Search | BrandLift" }];
