import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Outlet, useLoaderData, useMatches } from "@remix-run/react";

import { TeamUnreadTotal, ThreadUnreadCount } from "~/components/chat/unread-badge";
import { Sidebar } from "~/components/dashboard/sidebar";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { NotificationCount } from "~/components/notifications/notification-count";
import { SearchPalette } from "~/components/search/search-palette";
import { ButtonLink } from "~/components/ui/button";
import { cn } from "~/components/ui/cn";
import { can, memberCan, ownerKey } from "~/domain/permissions";
import { getUnreadCountForMember } from "~/models/chat.server";
import { bellCount } from "~/models/notifications.server";
import { SocketProvider } from "~/realtime/use-socket";
import { requireIdentity } from "~/web/auth.server";
import { loadSection } from "~/web/sections.server";
import { customerBadges, staffBadges, teamUnreadCounts } from "~/web/unread.server";

/**
 * /dashboard: the sidebar around every dashboard view. Each page starts with its own content: the
 * customer's welcome, counts and plan card are their overview's (services._index.tsx), staff's
 * overview and chart the Overview page (dashboard._index.tsx), decision 280. Unread chat counts for
 * the sidebar badge: staff the shared support inbox's total (decision 323), a customer their own thread.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const identity = await requireIdentity(request);
  const user = identity.user;
  // TEAM_2FA=required and no second factor yet: only the security page, in a sidebar with nothing else.
  if (identity.setupOnly) {
    const unread = { role: "team" as const, total: 0 };
    return {
      user: { id: user.id, name: user.name, role: user.role, clientId: null, clientRole: null },
      staff: true,
      setupOnly: true,
      unread,
      notifications: 0,
    };
  }
  // One decision for the whole layout: the staff view or the customer's.
  const staff = can(user, "area:team");
  // The badges and the bell's count (one query on the unread index, docs/decisions/289): for staff and
  // a client of one in one statement (models/badges.server.ts), else side by side.
  const [unreadSection, bellSection] = await Promise.all([
    loadSection("unread", async () =>
      staff
        ? {
            role: "team" as const,
            // The total alone: the sidebar shows only that, and asks for the counts per thread once a
            // live event changes one (docs/decisions/323-sidebar-unread-total.md).
            total: (await teamUnreadCounts(request, () => staffBadges(request, user.id).then((badges) => badges.unread))).total,
          }
        : {
            role: "user" as const,
            total: !memberCan(user, "chat")
              ? 0
              : ownerKey(user) === user.id
                ? (await customerBadges(request, user.id)).unread
                : await getUnreadCountForMember(ownerKey(user), user.id),
          },
    ),
    loadSection("notifications", async () =>
      staff
        ? (await staffBadges(request, user.id)).notifications
        : memberCan(user, "chat") && ownerKey(user) === user.id
          ? (await customerBadges(request, user.id)).notifications
          : bellCount(user.id),
    ),
  ]);
  const notifications = bellSection.ok ? bellSection.data : 0;
  // The badges are extras: without them the page simply shows none.
  const unread = unreadSection.ok ? unreadSection.data : staff ? { role: "team" as const, total: 0 } : { role: "user" as const, total: 0 };
  return {
    user: { id: user.id, name: user.name, role: user.role, clientId: user.clientId, clientRole: user.clientRole },
    staff,
    setupOnly: false,
    unread,
    notifications,
  };
}

export default function Dashboard() {
  const { user, staff, setupOnly, unread, notifications } = useLoaderData<typeof loader>();
  const bell = { "/dashboard/notifications": <NotificationCount initial={notifications} /> };
  const matches = useMatches();
  // Inside a link: a label without "message", so "Message" still names only the Message tab.
  const badges =
    unread.role === "team"
      ? {
          "/dashboard/users": <TeamUnreadTotal initialTotal={unread.total} viewer={{ id: user.id }} label="unread" />,
          "/dashboard/inbox": <TeamUnreadTotal initialTotal={unread.total} viewer={{ id: user.id }} label="unread" />,
          ...bell,
        }
      : {
          "/dashboard/services": (
            <ThreadUnreadCount customerId={user.clientId ?? user.id} initialCount={unread.total} viewer={{ id: user.id, role: "user" }} label="unread" />
          ),
          "/dashboard/messages": (
            <ThreadUnreadCount customerId={user.clientId ?? user.id} initialCount={unread.total} viewer={{ id: user.id, role: "user" }} label="unread" />
          ),
          ...bell,
        };
  // The customer's overview brings its own visible h1 (the welcome).
  const ownHeading = matches.some((match) => (match.handle as { overview?: boolean } | undefined)?.overview);
  // A workspace (the inbox) uses the whole width and height beside the sidebar, its panes scrolling on their own.
  const workspace = matches.some((match) => (match.handle as { workspace?: boolean } | undefined)?.workspace);
  // One socket for the whole dashboard: chat panels, presence and live badges all share it.
  return (
    <SocketProvider>
      <div className="min-h-screen lg:flex">
        <Sidebar role={user.role} clientRole={user.clientRole} name={user.name} badges={setupOnly ? {} : badges} setupOnly={setupOnly} compact={workspace} />
        <main
          className={cn("mx-auto w-full max-w-6xl min-w-0 space-y-8 px-4 py-6 sm:px-6 lg:px-10 lg:py-10", workspace && "max-w-none space-y-0 lg:px-5 lg:py-4")}
        >
          {/* Each page starts with its own heading and actions; this names the dashboard for screen readers. */}
          {ownHeading ? null : <h1 className="sr-only">{staff ? "BrandLift team dashboard" : "Your BrandLift dashboard"}</h1>}
          <Outlet />
        </main>
      </div>
      {/* Ctrl+K / ⌘K: the staff search as a palette (decision 191). */}
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
