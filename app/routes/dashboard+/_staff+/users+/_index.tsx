import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useSearchParams } from "@remix-run/react";

import { PlanBadges } from "~/components/billing/plan-badges";
import { OnlineBadge } from "~/components/chat/online-badge";
import { ThreadUnreadCount } from "~/components/chat/unread-badge";
import { ButtonLink } from "~/components/ui/button";
import { EmptyState } from "~/components/ui/empty-state";
import { ArrowRight, Users } from "~/components/ui/icons";
import { Pager } from "~/components/ui/pager";
import { SearchForm } from "~/components/ui/search-form";
import { SectionBoundary } from "~/components/ui/section-error";
import { countMatching, countOf } from "~/domain/format";
import { controlCharacterMessage, hasControlCharacters } from "~/domain/zod";
import { getUnreadCountsForTeam } from "~/models/chat.server";
import { clientRefs } from "~/models/clients.server";
import { listCustomers, USERS_PAGE_SIZE } from "~/models/customers.server";
import { subscriptionsByUser } from "~/models/subscriptions.server";
import { requireTeam } from "~/web/auth.server";

/**
 * /dashboard/users?search=&page=: staff find a customer among thousands, twenty at a time, with
 * each one's unread support messages (read here, not from the layout, so they are fresh on every visit).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const staff = await requireTeam(request);
  const url = new URL(request.url);
  const search = (url.searchParams.get("search") ?? "").trim().slice(0, 200);
  if (hasControlCharacters(search)) throw new Response(controlCharacterMessage("The search"), { status: 400 });
  const page = Math.min(Math.max(1, Number.parseInt(url.searchParams.get("page") ?? "1", 10) || 1), 1_000_000);
  const { users, total } = await listCustomers({ search, page, limit: USERS_PAGE_SIZE });
  // Unread badges are an extra: the list still shows when they cannot be read.
  const { byCustomer } = await getUnreadCountsForTeam().catch(() => ({ byCustomer: {} as Record<string, number> }));
  const unread = Object.fromEntries(users.map((u) => [u.id, byCustomer[u.id] ?? 0]));
  const [plans, clients] = await Promise.all([subscriptionsByUser(users.map((u) => u.id)), clientRefs(users.map((u) => u.clientId))]);
  const rows = users.map((u) => ({ id: u.id, name: u.name, email: u.email, client: clients.get(u.clientId) ?? null }));
  return { users: rows, total, page, pages: Math.max(1, Math.ceil(total / USERS_PAGE_SIZE)), search, unread, plans, staffId: staff.id };
}

type UsersData = ReturnType<typeof useLoaderData<typeof loader>>;

export default function UsersTab() {
  return <UsersView {...useLoaderData<typeof loader>()} />;
}

function UsersView({ users, total, page, pages, search, unread, plans, staffId }: UsersData) {
  const [params] = useSearchParams();
  return (
    <section aria-labelledby="users-heading" className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <h2 id="users-heading" className="text-xl font-bold text-slate-950">
          Users
        </h2>
        <SearchForm action="/dashboard/users" id="user-search" label="Search users by name or e-mail" placeholder="Search by name or e-mail" value={search} />
      </div>
      <p className="text-sm text-slate-600" aria-live="polite">
        {search ? `${countMatching(total, "customer")} “${search}”` : countOf(total, "customer")}
      </p>
      {users.length === 0 ? (
        <EmptyState
          icon={Users}
          title={search ? "No users found" : "No users yet"}
          text={search ? "Try another name or e-mail address." : "Customers appear here after their first purchase."}
          action={
            search ? (
              <ButtonLink to="/dashboard/users" variant="outline">
                Clear search
              </ButtonLink>
            ) : undefined
          }
        />
      ) : (
        <ul className="divide-y divide-slate-200 rounded-card border border-slate-200 bg-white shadow-card">
          {users.map((user) => (
            <li key={user.id} className="flex flex-wrap items-center gap-x-4 gap-y-1 px-5 py-4">
              <div className="min-w-0 flex-1">
                <p className="flex flex-wrap items-center gap-x-2 gap-y-1">
                  <span className="font-semibold break-words text-slate-950">{user.name}</span>
                  <OnlineBadge userId={user.id} />
                  <ThreadUnreadCount customerId={user.id} initialCount={unread[user.id] ?? 0} viewer={{ id: staffId, role: "team" }} />
                </p>
                <p className="text-sm break-all text-slate-600">{user.email}</p>
                {user.client && user.client.name !== user.name ? (
                  <p className="text-sm text-slate-700" data-testid="user-client">
                    Client <span className="font-semibold">{user.client.name}</span>
                  </p>
                ) : null}
                {plans?.[user.id]?.length ? <PlanBadges plans={plans[user.id]!} /> : null}
              </div>
              <Link to={`/dashboard/users/${user.id}`} prefetch="intent" className="row-link">
                View Details
                <ArrowRight className="size-4" aria-hidden="true" />
                <span className="sr-only">of {user.name}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
      <Pager page={page} pages={pages} path="/dashboard/users" keep={Object.fromEntries(params)} />
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: "Users — BrandLift dashboard" }];

export function ErrorBoundary() {
  return <SectionBoundary<UsersData> index message="Failed to load users" render={(data) => <UsersView {...data} />} />;
}
