import { Form, Link, NavLink, useLocation } from "@remix-run/react";
import { useEffect, useRef, type ReactNode } from "react";

import { cn } from "~/components/ui/cn";
import {
  Bell,
  CalendarDays,
  ClipboardList,
  CreditCard,
  FileText,
  Gauge,
  History,
  Inbox,
  LayoutDashboard,
  ListChecks,
  LogOut,
  MessageSquare,
  Receipt,
  Repeat,
  Search,
  SendHorizontal,
  ShieldCheck,
  ShoppingBag,
  Tags,
  UserCog,
  Users,
  UsersRound,
} from "~/components/ui/icons";
import { Logo, LogoMark } from "~/components/ui/logo";
import { roleCovers, type ClientCapability, type ClientRole } from "~/domain/clients";

const links = {
  team: [
    { to: "/dashboard", label: "Overview", icon: LayoutDashboard },
    { to: "/dashboard/search", label: "Search", icon: Search },
    { to: "/dashboard/work", label: "My work", icon: ClipboardList },
    { to: "/dashboard/users", label: "Users", icon: Users },
    { to: "/dashboard/inbox", label: "Inbox", icon: Inbox },
    { to: "/dashboard/calendar", label: "Calendar", icon: CalendarDays },
    { to: "/dashboard/orders", label: "Orders", icon: CreditCard },
    { to: "/dashboard/subscriptions", label: "Subscriptions", icon: Repeat },
    { to: "/dashboard/team", label: "Team", icon: UsersRound },
    { to: "/dashboard/catalogue", label: "Catalogue", icon: Tags },
    { to: "/dashboard/leads", label: "Leads", icon: Gauge },
    { to: "/dashboard/audit", label: "Audit log", icon: History },
    { to: "/dashboard/jobs", label: "Jobs", icon: ListChecks },
    { to: "/dashboard/webhooks", label: "Webhooks", icon: SendHorizontal },
    { to: "/dashboard/notifications", label: "Notifications", icon: Bell },
    { to: "/dashboard/account", label: "Account", icon: UserCog },
    { to: "/dashboard/security", label: "Security", icon: ShieldCheck },
  ],
  // A client's member sees the links their role covers (decision 283).
  user: [
    { to: "/dashboard/services", label: "Services", icon: ShoppingBag, needs: "work" },
    { to: "/dashboard/reports", label: "Reports", icon: FileText, needs: "work" },
    { to: "/dashboard/calendar", label: "Calendar", icon: CalendarDays, needs: "work" },
    { to: "/dashboard/messages", label: "Messages", icon: MessageSquare, needs: "chat" },
    { to: "/dashboard/receipts", label: "Receipts", icon: Receipt, needs: "billing" },
    { to: "/dashboard/company", label: "Team", icon: UsersRound },
    { to: "/dashboard/notifications", label: "Notifications", icon: Bell },
    { to: "/dashboard/account", label: "Account", icon: UserCog },
    { to: "/dashboard/security", label: "Security", icon: ShieldCheck },
  ],
  /** TEAM_2FA=required and no second factor yet: the one page such an account may open. */
  setupOnly: [{ to: "/dashboard/security", label: "Security", icon: ShieldCheck }],
} satisfies Record<string, readonly { to: string; label: string; icon: unknown; needs?: ClientCapability }[]>;

/** `.sidebar-link` (tailwind.css): the row's shape and focus ring, one class in each of the 16 links. */
const itemClass = "sidebar-link px-4";

/**
 * The spec's sidebar: Users for staff, Services and Reports for customers, Logout for both.
 * `badges`: something to show at the end of a link (unread counts), by the link's path.
 * `compact`: a workspace (the inbox's three panes) is open: from 1024 to 1279 px the sidebar is a rail
 * of icons (labels stay for screen readers and as tooltips), so the conversation keeps its width.
 */
export function Sidebar({
  role,
  clientRole = null,
  name,
  badges = {},
  setupOnly = false,
  compact = false,
}: {
  role: "user" | "team";
  /** A customer's role in their client: the links it covers. */
  clientRole?: ClientRole | null;
  name: string;
  badges?: Partial<Record<string, ReactNode>>;
  setupOnly?: boolean;
  compact?: boolean;
}) {
  /** Visible on phones and from xl; hidden (but read) on a compact rail between lg and xl. */
  const railText = compact ? "lg:sr-only xl:not-sr-only" : undefined;
  const row = useRef<HTMLUListElement>(null);
  const { pathname } = useLocation();
  // Phones: the row of links scrolls sideways; bring the current page's link into view (Receipts, Account… sit past the edge).
  useEffect(() => {
    const list = row.current;
    const current = list?.querySelector<HTMLElement>('[aria-current="page"]');
    if (!list || !current || list.scrollWidth <= list.clientWidth) return;
    const left = current.getBoundingClientRect().left - list.getBoundingClientRect().left + list.scrollLeft;
    if (left < list.scrollLeft || left + current.offsetWidth > list.scrollLeft + list.clientWidth) {
      list.scrollLeft = Math.max(0, left - (list.clientWidth - current.offsetWidth) / 2);
    }
  }, [pathname]);
  return (
    <div className={cn("bg-brand-950 text-white lg:w-64 lg:shrink-0", compact && "sidebar-rail lg:w-16 xl:w-64")}>
      {/* From lg a full-height column that scrolls on its own when the links outgrow a short window (16 for staff). */}
      <aside className="lg:sticky lg:top-0 lg:flex lg:h-screen lg:flex-col lg:overflow-y-auto">
        <div className={cn("flex items-center justify-between gap-4 px-5 py-4 lg:py-6", compact && "lg:justify-center lg:px-2 xl:justify-between xl:px-5")}>
          <Link to="/" aria-label="BrandLift home" className="rounded-lg focus-visible:outline-2 focus-visible:outline-accent-300">
            <Logo tone="light" className={compact ? "lg:hidden xl:inline-flex" : undefined} />
            {compact ? <LogoMark className="hidden size-9 lg:block xl:hidden" /> : null}
          </Link>
          {/* Phones: the bell and Logout stay in the top bar, never past the edge of the scrolling row of links. */}
          <div className="flex items-center gap-1 lg:hidden">
            {setupOnly ? null : (
              <NavLink
                to="/dashboard/notifications"
                prefetch="intent"
                className={({ isActive }) =>
                  cn(itemClass, "w-auto gap-1.5 px-3", isActive ? "bg-white text-brand-800" : "text-slate-200 hover:bg-white/10 hover:text-white")
                }
              >
                <Bell className="size-5" aria-hidden="true" />
                <span className="sr-only">Notifications</span>
                {badges["/dashboard/notifications"]}
              </NavLink>
            )}
            <Form method="post" action="/logout">
              <button type="submit" className={cn(itemClass, "w-auto px-3 text-slate-200 hover:bg-white/10 hover:text-white")}>
                <LogOut className="size-5" aria-hidden="true" />
                Logout
              </button>
            </Form>
          </div>
        </div>
        <nav aria-label="Dashboard" className={cn("flex flex-1 flex-col gap-1 px-3 pb-3 lg:pb-6", compact && "lg:px-2 xl:px-3")}>
          {/* Phones (360-390 px): one row that scrolls sideways; from lg a column. Its items and links take their looks from `.sidebar-nav` and `.sidebar-rail` (styles/tailwind.css, decision 320). */}
          <ul
            ref={row}
            className="sidebar-nav relative -mx-3 flex gap-1 overflow-x-auto px-3 pb-1 [scrollbar-width:thin] lg:mx-0 lg:flex-col lg:overflow-visible lg:px-0 lg:pb-0"
          >
            {(links[setupOnly ? "setupOnly" : role] as readonly { to: string; label: string; icon: typeof Users; needs?: ClientCapability }[])
              .filter((link) => !link.needs || roleCovers(clientRole ?? "owner", link.needs))
              .map(({ to, label, icon: Icon }) => (
                <li key={to}>
                  <NavLink
                    to={to}
                    // Overview is /dashboard itself: current only there, not on every page under it.
                    end={to === "/dashboard"}
                    prefetch="intent"
                    title={compact ? label : undefined}
                    className="sidebar-link"
                  >
                    <Icon aria-hidden="true" />
                    <span>{label}</span>
                    {badges[to] ? (
                      <span className={cn("ml-auto", compact && "lg:absolute lg:-top-1 lg:right-0 lg:ml-0 xl:static xl:ml-auto")}>{badges[to]}</span>
                    ) : null}
                  </NavLink>
                </li>
              ))}
            <li className="hidden lg:mt-auto lg:block">
              <Form method="post" action="/logout">
                <button
                  type="submit"
                  title={compact ? "Logout" : undefined}
                  className={cn(
                    itemClass,
                    "text-slate-300 hover:bg-white/10 hover:text-white",
                    compact && "lg:justify-center lg:px-0 xl:justify-start xl:px-4",
                  )}
                >
                  <LogOut className="size-5 shrink-0" aria-hidden="true" />
                  <span className={railText}>Logout</span>
                </button>
              </Form>
            </li>
          </ul>
          <p className={cn("mt-auto hidden px-4 pt-6 text-xs text-slate-300 lg:block", compact && "lg:hidden xl:block")}>
            Signed in as <span className="font-semibold text-white">{name}</span>
          </p>
        </nav>
      </aside>
    </div>
  );
}
