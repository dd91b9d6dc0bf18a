import { Link } from "@remix-run/react";

import { Badge } from "~/components/ui/badge";
import { ButtonLink } from "~/components/ui/button";
import { ArrowRight, ClipboardList } from "~/components/ui/icons";

/*
 * "Brief needed": the purchases and plans whose brief is still to answer, each with its link, after
 * payment (the success page) and at the top of the customer's dashboard until it is sent.
 */

export interface BriefNeededItem {
  id: string;
  title: string;
  href: string;
}

export function BriefsNeeded({ briefs, headingLevel = 2 }: { briefs: BriefNeededItem[]; headingLevel?: 2 | 3 }) {
  if (briefs.length === 0) return null;
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <section aria-labelledby="briefs-needed-heading" className="rounded-card border border-amber-300 bg-amber-50 p-5 text-left">
      <div className="flex items-center gap-2">
        <ClipboardList aria-hidden="true" className="size-5 text-amber-800" />
        <Heading id="briefs-needed-heading" className="text-lg font-semibold text-slate-950">
          {briefs.length === 1 ? "Brief needed" : `${briefs.length} briefs needed`}
        </Heading>
      </div>
      <p className="mt-1 text-sm text-slate-700">Before we start, tell us about your project: a few questions, a few minutes.</p>
      <ul className="mt-3 space-y-2">
        {briefs.map((brief) => (
          <li key={brief.id} className="flex flex-wrap items-center gap-2">
            <Badge tone="warning">Brief needed</Badge>
            <Link
              to={brief.href}
              className="inline-flex min-h-11 items-center gap-1 font-semibold text-brand-700 underline-offset-2 hover:text-brand-900 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600"
            >
              Answer the brief for {brief.title}
              <ArrowRight aria-hidden="true" className="size-4" />
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The badge on a purchase or plan, for the customer and for staff: shown while its brief is still to send. */
export function BriefBadge({ brief }: { brief: { required: boolean; submittedAt: string | null } | undefined }) {
  return brief?.required && !brief.submittedAt ? <Badge tone="warning">Brief needed</Badge> : null;
}

/** On a purchase or a plan of the customer: the way to its brief, to answer it or to correct it. */
export function BriefLink({ href, sent, className }: { href: string; sent: boolean; className?: string }) {
  return (
    <ButtonLink to={href} size="sm" variant={sent ? "outline" : "primary"} className={className}>
      <ClipboardList aria-hidden="true" className="size-4" />
      {sent ? "View your brief" : "Answer the brief"}
    </ButtonLink>
  );
}
