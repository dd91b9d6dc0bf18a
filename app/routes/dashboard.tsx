import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { isRouteErrorResponse, Outlet, useLoaderData, useRouteError } from "@remix-run/react";
import { TeamUnreadTotal, ThreadUnreadCount } from "~/components/chat/unread-badge";
import { Overview, type OverviewCounts } from "~/components/dashboard/overview";
import { Sidebar } from "~/components/dashboard/sidebar";
import { ButtonLink } from "~/components/ui/button";
import { formatDate } from "~/components/dashboard/types";
import { formatMoney } from "~/components/ui/file-size";
import { getUnreadCountForCustomer, getUnreadCountsForTeam } from "~/models/chat.server";
import { getActiveSubscription } from "~/models/subscriptions.server";
import { getCustomerCounts, getTeamCounts } from "~/models/stats.server";
import { SocketProvider } from "~/realtime/use-socket";
import { requireUser } from "~/utils/auth.server";
import { can } from "~/utils/permissions";

/**
 * /dashboard: the sidebar and the overview cards around every dashboard view. Unread chat counts
 * for the sidebar badge: staff per customer (the shared support inbox), a customer their own thread.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const counts: OverviewCounts = can(user, "stats:team")
    ? { role: "team", ...(await getTeamCounts()) }
    : { role: "user", ...(await getCustomerCounts(user.id)) };
  const unread =
    user.role === "team"
      ? { role: "team" as const, ...(await getUnreadCountsForTeam()) }
      : { role: "user" as const, total: await getUnreadCountForCustomer(user.id) };
  const subscription = user.role === "user" ? await getActiveSubscription(user.id) : null;
  const plan = subscription
    ? { title: subscription.title, price: subscription.price, currency: subscription.currency, renews: subscription.currentPeriodEnd?.toISOString() ?? null, ending: subscription.cancelAtPeriodEnd }
    : null;
  return { user: { id: user.id, name: user.name, role: user.role }, counts, plan, unread };
}

export default function Dashboard() {
  const { user, counts, plan, unread } = useLoaderData<typeof loader>();
  // Inside a link: a label without "message", so "Message" still names only the Message tab.
  const badges =
    unread.role === "team"
      ? { "/dashboard/users": <TeamUnreadTotal initialByCustomer={unread.byCustomer} viewer={{ id: user.id }} label="unread" /> }
      : {
          "/dashboard/services": (
            <ThreadUnreadCount customerId={user.id} initialCount={unread.total} viewer={{ id: user.id, role: "user" }} label="unread" />
          ),
        };
  // One socket for the whole dashboard: chat panels, presence and live badges all share it.
  return (
    <SocketProvider>
      <div className="min-h-screen lg:flex">
        <Sidebar role={user.role} name={user.name} badges={badges} />
        <main className="mx-auto w-full max-w-6xl min-w-0 space-y-8 px-4 py-6 sm:px-6 lg:px-10 lg:py-10">
          <header>
            <h1 className="text-2xl font-bold tracking-tight text-slate-950 sm:text-3xl">Welcome back, {user.name.split(" ")[0]}</h1>
            <p className="mt-1 text-slate-600">
              {user.role === "team" ? "Revenue, bookings and your customers at a glance." : "Your services, reports and messages in one place."}
            </p>
          </header>
          {plan ? (
            <p className="rounded-card border border-brand-200 bg-brand-50 px-5 py-3 text-sm text-brand-900">
              Your plan: <strong>{plan.title}</strong> · {formatMoney(plan.price, plan.currency)}/mo
              {plan.renews ? ` · ${plan.ending ? "ends" : "renews"} ${formatDate(plan.renews)}` : ""}
            </p>
          ) : null}
          <Overview counts={counts} />
          <Outlet />
        </main>
      </div>
    </SocketProvider>
  );
}

export const meta: MetaFunction = () => [{ title: "Dashboard — BrandLift" }];

/** 403 (a customer on a staff page), 404 (not there, or not theirs) or an outage, inside the dashboard. */
export function ErrorBoundary() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const [title, text] =
    status === 403
      ? ["Not allowed", "Your account does not have access to this page."]
      : status === 404
        ? ["Not found", "We couldn't find that page. It may have been removed, or the link may be mistyped."]
        : ["The dashboard could not be loaded", "Please try again in a moment."];
  return (
    <main className="mx-auto flex min-h-screen max-w-xl flex-col items-center justify-center gap-4 px-6 text-center">
      <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase">Error {status}</p>
      <h1 className="text-3xl font-bold text-slate-950">{title}</h1>
      <p className="text-slate-600">{text}</p>
      <ButtonLink to="/dashboard" reloadDocument>
        {status === 500 ? "Retry" : "Go to your dashboard"}
      </ButtonLink>
    </main>
  );
}
