import { Form, Link, NavLink } from "@remix-run/react";
import { FileText, LogOut, ShoppingBag, Users } from "lucide-react";
import type { ReactNode } from "react";
import { cn } from "~/components/ui/cn";
import { Logo } from "~/components/ui/logo";

const links = {
  team: [{ to: "/dashboard/users", label: "Users", icon: Users }],
  user: [
    { to: "/dashboard/services", label: "Services", icon: ShoppingBag },
    { to: "/dashboard/reports", label: "Reports", icon: FileText },
  ],
} as const;

const itemClass =
  "flex min-h-11 w-full items-center gap-3 rounded-xl px-4 text-sm font-semibold transition-colors " +
  "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent-300";

/**
 * The spec's sidebar: Users for staff, Services and Reports for customers, Logout for both.
 * `badges`: something to show at the end of a link (unread counts), by the link's path.
 */
export function Sidebar({ role, name, badges = {} }: { role: "user" | "team"; name: string; badges?: Partial<Record<string, ReactNode>> }) {
  return (
    <div className="bg-brand-950 text-white lg:w-64 lg:shrink-0">
    <aside className="lg:sticky lg:top-0 lg:flex lg:h-screen lg:flex-col">
      <div className="flex items-center justify-between gap-4 px-5 py-4 lg:py-6">
        <Link to="/" aria-label="BrandLift home" className="rounded-lg focus-visible:outline-2 focus-visible:outline-accent-300">
          <Logo tone="light" />
        </Link>
      </div>
      <nav aria-label="Dashboard" className="flex flex-1 flex-col gap-1 px-3 pb-3 lg:pb-6">
        <ul className="flex gap-1 lg:flex-col">
          {links[role].map(({ to, label, icon: Icon }) => (
            <li key={to} className="flex-1 lg:flex-none">
              <NavLink
                to={to}
                prefetch="intent"
                className={({ isActive }) =>
                  cn(itemClass, isActive ? "bg-white text-brand-800" : "text-slate-300 hover:bg-white/10 hover:text-white")
                }
              >
                <Icon className="size-5" aria-hidden="true" />
                {label}
                {badges[to] ? <span className="ml-auto">{badges[to]}</span> : null}
              </NavLink>
            </li>
          ))}
          <li className="flex-1 lg:mt-auto lg:flex-none">
            <Form method="post" action="/logout">
              <button type="submit" className={cn(itemClass, "text-slate-300 hover:bg-white/10 hover:text-white")}>
                <LogOut className="size-5" aria-hidden="true" />
                Logout
              </button>
            </Form>
          </li>
        </ul>
        <p className="mt-auto hidden px-4 pt-6 text-xs text-slate-300 lg:block">
          Signed in as <span className="font-semibold text-white">{name}</span>
        </p>
      </nav>
    </aside>
    </div>
  );
}
