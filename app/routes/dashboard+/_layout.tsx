import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Outlet, useLoaderData, useMatches } from "@remix-run/react";

import { PlanOverview } from "~/components/billing/plan-overview";
import { BriefsNeeded } from "~/components/brief/briefs-needed";
import { TeamUnreadTotal, ThreadUnreadCount } from "~/components/chat/unread-badge";
import { Overview, type OverviewCounts } from "~/components/dashboard/overview";
import { Sidebar } from "~/components/dashboard/sidebar";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { SearchPalette } from "~/components/search/search-palette";
import { ButtonLink } from "~/components/ui/button";
import { cn } from "~/components/ui/cn";
import { can } from "~/domain/permissions";
import { listBriefsNeeded } from "~/models/briefs.server";
import { getUnreadCountForCustomer, getUnreadCountsForTeam } from "~/models/chat.server";
import { getCustomerCounts } from "~/models/stats.server";
import { listSubscriptionsForUser, toSubscriptions } from "~/models/subscriptions.server";
import { markWelcomed } from "~/models/users.server";
import { SocketProvider } from "~/realtime/use-socket";
import { requireIdentity } from "~/web/auth.server";
import { loadSection } from "~/web/sections.server";

/**
 * /dashboard: the sidebar around every dashboard view; for customers also the overview cards. Staff
 * tools own the whole screen (issue 23): their overview and chart are the Overview page
 * (dashboard._index.tsx). Unread chat counts for the sidebar badge: staff per customer (the
 * shared support inbox), a customer their own thread.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const identity = await requireIdentity(request);
  const user = identity.user;
  // TEAM_2FA=required and no second factor yet: only the security page, in a sidebar with nothing else.
  if (identity.setupOnly) {
    const unread = { role: "team" as const, total: 0, byCustomer: {} as Record<string, number> };
    return {
      user: { id: user.id, name: user.name, role: user.role },
      staff: true,
      setupOnly: true,
      firstVisit: false,
      counts: null,
      plans: [],
      unread,
      briefs: [],
    };
  }
  // One decision for the whole layout: the staff view or the customer's.
  const staff = can(user, "area:team");
  // A customer's /dashboard is only a redirect to their Services (dashboard._index.tsx), where a
  // first password lands too: that request is not their first look, so it keeps the welcome.
  const passingThrough = !staff && /^\/dashboard\/?$/.test(new URL(request.url).pathname);
  // Each part is read on its own: a failed one shows its error, the sidebar and the rest stay.
  const [firstVisit, counts, unreadSection, planSection, briefSection] = await Promise.all([
    passingThrough ? false : markWelcomed(user.id),
    staff ? null : loadSection<OverviewCounts>("overview", async () => ({ role: "user", ...(await getCustomerCounts(user.id)) })),
    loadSection("unread", async () =>
      staff ? { role: "team" as const, ...(await getUnreadCountsForTeam()) } : { role: "user" as const, total: await getUnreadCountForCustomer(user.id) },
    ),
    loadSection("plan", async () => (!staff ? await toSubscriptions(await listSubscriptionsForUser(user.id)) : [])),
    // "Brief needed" for each purchase or plan whose brief is still to send (decision 201).
    loadSection("briefs", async () => (!staff ? await listBriefsNeeded({ userId: user.id }) : [])),
  ]);
  // Badges and the plan line are extras: without them the page simply shows none.
  const unread = unreadSection.ok
    ? unreadSection.data
    : staff
      ? { role: "team" as const, total: 0, byCustomer: {} as Record<string, number> }
      : { role: "user" as const, total: 0 };
  const plans = planSection.ok ? planSection.data : [];
  const briefs = briefSection.ok ? briefSection.data : [];
  return { user: { id: user.id, name: user.name, role: user.role }, staff, setupOnly: false, firstVisit, counts, plans, unread, briefs };
}

export default function Dashboard() {
  const { user, staff, setupOnly, firstVisit, counts, plans, unread, briefs } = useLoaderData<typeof loader>();
  const matches = useMatches();
  // Inside a link: a label without "message", so "Message" still names only the Message tab.
  const badges =
    unread.role === "team"
      ? {
          "/dashboard/users": <TeamUnreadTotal initialByCustomer={unread.byCustomer} viewer={{ id: user.id }} label="unread" />,
          "/dashboard/inbox": <TeamUnreadTotal initialByCustomer={unread.byCustomer} viewer={{ id: user.id }} label="unread" />,
        }
      : {
          "/dashboard/services": <ThreadUnreadCount customerId={user.id} initialCount={unread.total} viewer={{ id: user.id, role: "user" }} label="unread" />,
          "/dashboard/messages": <ThreadUnreadCount customerId={user.id} initialCount={unread.total} viewer={{ id: user.id, role: "user" }} label="unread" />,
        };
  const detail = matches.some((match) => (match.handle as { detail?: boolean } | undefined)?.detail);
  // A plan's own page shows its card itself: no second "Your plan" card above it.
  const planPage = matches.some((match) => (match.handle as { plan?: boolean } | undefined)?.plan);
  // A workspace (the inbox) uses the whole width and height beside the sidebar, its panes scrolling on their own.
  const workspace = matches.some((match) => (match.handle as { workspace?: boolean } | undefined)?.workspace);
  // One socket for the whole dashboard: chat panels, presence and live badges all share it.
  return (
    <SocketProvider>
      <div className="min-h-screen lg:flex">
        <Sidebar role={user.role} name={user.name} badges={setupOnly ? {} : badges} setupOnly={setupOnly} compact={workspace} />
        <main
          className={cn("mx-auto w-full max-w-6xl min-w-0 space-y-8 px-4 py-6 sm:px-6 lg:px-10 lg:py-10", workspace && "max-w-none space-y-0 lg:px-5 lg:py-4")}
        >
          {counts ? (
            <>
              {/* Phones on a detail page (a service): the chat and tabs come first, the overview stays on the lists. */}
              <header className={detail ? "max-lg:sr-only" : undefined}>
                <h1 className="text-2xl font-bold tracking-tight text-slate-950 sm:text-3xl">
                  {firstVisit ? "Welcome" : "Welcome back"}, {user.name.split(" ")[0]}
                </h1>
                <p className="mt-1 text-slate-600">Your services, reports and messages in one place.</p>
              </header>
              <div className={detail ? "space-y-8 max-lg:hidden" : "space-y-8"}>
                {/* A detail page has its own way to its brief. */}
                {detail ? null : <BriefsNeeded briefs={briefs} />}
                <Overview counts={counts} role={user.role} />
                {plans.length > 0 && !planPage ? <PlanOverview plans={plans} /> : null}
              </div>
            </>
          ) : (
            // Staff: each tool starts with its own heading and actions; this names the page for screen readers.
            <h1 className="sr-only">BrandLift team dashboard</h1>
          )}
          <Outlet />
        </main>
      </div>
      {/* Ctrl+K / ⌘K: the staff search as a palette (issue 23.6). */}
      {staff && !setupOnly ? <SearchPalette /> : null}
    </SocketProvider>
  );
}

export const meta: MetaFunction = () => [{ title: "Dashboard — BrandLift" }];

function DashboardError({ status }: { status: number }) {
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
        {status >= 500 ? "Retry" : "Go to your dashboard"}
      </ButtonLink>
    </main>
  );
}

/** 403 (a customer on a staff page), 404 (not there, or not theirs) or an outage, inside the dashboard. */
export function ErrorBoundary() {
  return (
    <GeneralErrorBoundary
      defaultStatusHandler={({ error }) => <DashboardError status={error.status} />}
      unexpectedErrorHandler={() => <DashboardError status={500} />}
    />
  );
}
