import { Link, useRouteLoaderData } from "@remix-run/react";
import { LayoutDashboard, LogIn, Menu, X } from "lucide-react";

import { ButtonLink } from "~/components/ui/button";
import { Logo } from "~/components/ui/logo";

type HeaderUser = { name: string } | null;

export type SiteHeaderProps = {
  /** When signed in, the header offers the dashboard instead of the login. Left out: the root loader's user (error pages, purchase pages). */
  user?: HeaderUser;
};

/** Sections of the landing page: absolute, so they work from every page that shows this header. */
const sectionLinks = [
  { href: "/#a-la-carte", label: "Services" },
  { href: "/#subscription-options", label: "Plans" },
  { href: "/#faq", label: "FAQ" },
  { href: "/#contact", label: "Contact" },
];

export function SiteHeader(props: SiteHeaderProps) {
  const root = useRouteLoaderData("root") as { user?: HeaderUser } | undefined;
  const user = props.user === undefined ? (root?.user ?? null) : props.user;
  return (
    <header className="sticky top-0 z-40 border-b border-slate-200/80 bg-white/90 backdrop-blur supports-[backdrop-filter]:bg-white/75">
      <div className="mx-auto flex h-18 max-w-7xl items-center justify-between gap-4 px-4 sm:px-6 lg:px-8">
        <Link
          to="/"
          aria-label="BrandLift home"
          className="-m-1 rounded-lg p-1 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
        >
          <Logo />
        </Link>
        <nav aria-label="Sections" className="hidden md:block">
          <ul className="flex items-center gap-1">
            {sectionLinks.map((link) => (
              <li key={link.href}>
                <a
                  href={link.href}
                  className="inline-flex min-h-11 items-center rounded-full px-4 text-sm font-semibold text-slate-700 hover:bg-slate-100 hover:text-slate-950"
                >
                  {link.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div className="flex items-center gap-2">
          {/* Phones: the section links behind a <details> menu, which opens and closes without JavaScript. */}
          <details className="group relative md:hidden" data-site-menu="">
            <summary
              aria-label="Menu"
              className="flex size-11 cursor-pointer list-none items-center justify-center rounded-full text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 [&::-webkit-details-marker]:hidden"
            >
              <Menu className="size-6 group-open:hidden" aria-hidden="true" />
              <X className="hidden size-6 group-open:block" aria-hidden="true" />
            </summary>
            <nav aria-label="Sections" className="absolute right-0 mt-2 w-56 rounded-2xl border border-slate-200 bg-white p-2 shadow-lift">
              <ul>
                {sectionLinks.map((link) => (
                  <li key={link.href}>
                    <a
                      href={link.href}
                      onClick={(event) => event.currentTarget.closest("details")?.removeAttribute("open")}
                      className="flex min-h-11 items-center rounded-xl px-4 text-base font-semibold text-slate-800 hover:bg-slate-100"
                    >
                      {link.label}
                    </a>
                  </li>
                ))}
              </ul>
            </nav>
          </details>
          {user ? (
            <ButtonLink to="/dashboard" size="sm" title={`Signed in as ${user.name}`}>
              <LayoutDashboard className="size-4" />
              Dashboard
            </ButtonLink>
          ) : (
            <ButtonLink to="/login" size="sm">
              <LogIn className="size-4" />
              Login
            </ButtonLink>
          )}
        </div>
      </div>
    </header>
  );
}
