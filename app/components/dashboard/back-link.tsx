import { Link } from "@remix-run/react";

import { ArrowLeft } from "~/components/ui/icons";

/** The detail views' way back to their list. */
export function BackLink({ to, children }: { to: string; children: string }) {
  return (
    <Link
      to={to}
      prefetch="intent"
      className="inline-flex min-h-11 items-center gap-2 rounded-full px-3 text-sm font-semibold text-slate-700 hover:bg-slate-100 hover:text-slate-950 focus-visible:outline-2 focus-visible:outline-brand-600"
    >
      <ArrowLeft className="size-4" aria-hidden="true" />
      {children}
    </Link>
  );
}
