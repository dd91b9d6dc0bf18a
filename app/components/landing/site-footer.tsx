import { Link, useRouteLoaderData } from "@remix-run/react";

import { Logo } from "~/components/ui/logo";

const footerLinks = [
  { to: "/", label: "Home" },
  { to: "/terms", label: "Terms" },
  { to: "/privacy", label: "Privacy" },
];

export function SiteFooter() {
  // The root loader's year, so the server and the hydrated page say the same; a page whose root
  // loader failed (the error page) reads the clock it renders with.
  const year = (useRouteLoaderData("root") as { year?: number } | undefined)?.year ?? new Date().getUTCFullYear();
  return (
    <footer className="render-when-near bg-slate-950 text-slate-300">
      <div className="mx-auto flex max-w-7xl flex-col gap-8 px-4 py-12 sm:px-6 md:flex-row md:items-center md:justify-between lg:px-8">
        <div className="max-w-sm">
          <Logo tone="light" />
          <p className="mt-3 text-sm leading-relaxed text-slate-400">Social media branding, content and strategy for brands that want to be graded an A.</p>
        </div>
        <nav aria-label="Footer">
          <ul className="flex flex-wrap gap-x-2 gap-y-1">
            {footerLinks.map((link) => (
              <li key={link.to}>
                <Link
                  to={link.to}
                  className="inline-flex min-h-11 items-center rounded-full px-3 text-sm font-medium text-slate-300 hover:bg-white/10 hover:text-white focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
                >
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </div>
      <div className="border-t border-white/10">
        <p className="mx-auto max-w-7xl px-4 py-6 text-sm text-slate-400 sm:px-6 lg:px-8">© {year} BrandLift. All rights reserved.</p>
      </div>
    </footer>
  );
}
