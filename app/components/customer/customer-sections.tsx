import { Form, Link, useNavigation } from "@remix-run/react";
import type { ReactNode } from "react";

import { PlanBadges } from "~/components/billing/plan-badges";
import { BriefAnswerList, briefSentLine } from "~/components/brief/brief-answers";
import { BriefBadge } from "~/components/brief/briefs-needed";
import { StatusBadge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { cn } from "~/components/ui/cn";
import { Label, Textarea } from "~/components/ui/input";
import type { CustomerBrief, CustomerProfile } from "~/domain/customer";
import { formatCents } from "~/domain/format";
import type { ThreadNote } from "~/domain/inbox";
import { formatDate } from "~/domain/purchase";
import { NOTE_MAX } from "~/domain/schemas/workspace";

/*
 * The parts of a customer's profile (models/customer-profile.server.ts), each a titled section:
 * the inbox's customer pane stacks them in a narrow column, the customer page lays them out wide.
 */

export function Section({ title, id, children, className }: { title: string; id: string; children: ReactNode; className?: string }) {
  return (
    <section aria-labelledby={id} className={cn("rounded-2xl border border-slate-200 bg-white p-4 text-sm", className)}>
      <h3 id={id} className="font-semibold text-slate-950">
        {title}
      </h3>
      {children}
    </section>
  );
}

export function PlanSection({ profile, idPrefix }: { profile: CustomerProfile; idPrefix: string }) {
  return (
    <Section title="Plan and billing" id={`${idPrefix}-plan`}>
      {profile.plans.length === 0 ? <p className="mt-1 text-slate-600">No plan.</p> : <PlanBadges plans={profile.plans} />}
      {profile.customer.disabled ? <p className="mt-2 font-semibold text-red-700">The account is disabled.</p> : null}
    </Section>
  );
}

export function PurchasesSection({ profile, idPrefix }: { profile: CustomerProfile; idPrefix: string }) {
  return (
    <Section title="Purchases" id={`${idPrefix}-purchases`}>
      {profile.purchases.length === 0 ? (
        <p className="mt-1 text-slate-600">No purchases yet.</p>
      ) : (
        <ul className="mt-2 space-y-2">
          {profile.purchases.map((p) => (
            <li key={p.id} data-testid="customer-purchase" className="flex flex-wrap items-center justify-between gap-x-2 gap-y-1">
              <span className="min-w-0 font-medium break-words text-slate-900">{p.service.name}</span>
              <span className="flex items-center gap-2">
                <span className="text-slate-700 tabular-nums">{formatCents(p.amountCents, p.currency)}</span>
                <StatusBadge status={p.status} />
                <BriefBadge brief={p.brief} />
              </span>
              {p.assignee || p.dueAt ? (
                <span className="w-full text-xs text-slate-600">
                  {p.assignee ? `Assigned to ${p.assignee.name}` : "Unassigned"}
                  {p.dueAt ? ` · due ${formatDate(p.dueAt)}` : ""}
                </span>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}

/** The customer's briefs: each one's answers fold open beside the conversation (decision 200). */
export function BriefsSection({ profile, idPrefix }: { profile: CustomerProfile; idPrefix: string }) {
  if (profile.briefs.length === 0) return null;
  return (
    <Section title="Briefs" id={`${idPrefix}-briefs`}>
      <BriefList briefs={profile.briefs} />
    </Section>
  );
}

/** Briefs as staff read them: one fold each, open while there are few. */
export function BriefList({ briefs }: { briefs: CustomerBrief[] }) {
  return (
    <ul className="mt-2 space-y-2">
      {briefs.map((brief) => (
        <li key={brief.id} data-testid="customer-brief">
          <details open={briefs.length <= 2} className="rounded-xl border border-slate-200 p-3">
            <summary className="flex min-h-11 cursor-pointer flex-wrap items-center gap-2 font-medium text-slate-900">
              {brief.title}
              {brief.submittedAt ? (
                <span className="text-xs text-slate-600">{briefSentLine(brief.submittedAt)}</span>
              ) : (
                <BriefBadge brief={{ required: true, submittedAt: null }} />
              )}
            </summary>
            <div className="mt-2">
              <BriefAnswerList brief={brief} files={brief.files} compact />
            </div>
          </details>
        </li>
      ))}
    </ul>
  );
}

export function OrdersSection({ profile, idPrefix, limit }: { profile: CustomerProfile; idPrefix: string; limit?: number }) {
  const shown = limit ? profile.receipts.slice(0, limit) : profile.receipts;
  return (
    <Section title="Orders and receipts" id={`${idPrefix}-orders`}>
      <p className="mt-1 text-slate-700">
        <span data-testid="total-paid" className="font-semibold text-slate-950 tabular-nums">
          {formatCents(profile.totalPaid.amountCents, profile.totalPaid.currency)}
        </span>{" "}
        paid in {profile.receipts.length} {profile.receipts.length === 1 ? "payment" : "payments"}
      </p>
      {shown.length > 0 ? (
        <ul className="mt-2 space-y-1.5">
          {shown.map((r) => (
            <li key={r.id} className="flex flex-wrap items-center justify-between gap-x-2">
              {r.kind === "order" ? (
                <Link to={`/dashboard/orders/${r.id}`} className="font-medium text-brand-700 hover:underline">
                  {r.description}
                </Link>
              ) : (
                <a href={r.url} className="font-medium text-brand-700 hover:underline">
                  {r.description}
                </a>
              )}
              <span className="text-slate-600">
                <span className="tabular-nums">{formatCents(r.amountCents, r.currency)}</span>
                {r.refundedCents > 0 ? <span className="text-slate-600"> ({formatCents(r.refundedCents, r.currency)} refunded)</span> : null} ·{" "}
                {formatDate(r.paidAt)}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
    </Section>
  );
}

export function GraderSection({ profile, idPrefix }: { profile: CustomerProfile; idPrefix: string }) {
  return (
    <Section title="Grader" id={`${idPrefix}-grader`}>
      {profile.grades.length === 0 ? (
        <p className="mt-1 text-slate-600">No grader result for this e-mail.</p>
      ) : (
        <ul className="mt-2 space-y-1.5">
          {profile.grades.map((g) => (
            <li key={g.id} data-testid="customer-grade">
              <a href={`/grade/${g.id}`} className="font-medium text-brand-700 hover:underline">
                {g.overall} · {g.score}/100
              </a>{" "}
              <span className="text-slate-600">· {formatDate(g.createdAt)}</span>
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}

/** A note's own look: amber, marked "Internal note", so nobody mistakes it for a message the customer saw. */
export function NoteCard({ note, className }: { note: ThreadNote; className?: string }) {
  return (
    <div data-testid="thread-note" className={cn("rounded-xl border border-dashed border-amber-400 bg-amber-50 px-3 py-2 text-sm text-amber-950", className)}>
      <p className="text-xs font-semibold text-amber-900">
        Internal note · {note.author?.name ?? "Former staff"} · <time dateTime={note.createdAt}>{formatDate(note.createdAt)}</time>
      </p>
      <p className="mt-1 break-words whitespace-pre-wrap">{note.body}</p>
    </div>
  );
}

/**
 * The notes and the form to add one (posts `intent=note` to `action`, by default the page it is on;
 * no JavaScript needed).
 */
export function NotesSection({ profile, idPrefix, error, action }: { profile: CustomerProfile; idPrefix: string; error?: string | null; action?: string }) {
  const navigation = useNavigation();
  const adding = navigation.state !== "idle" && navigation.formData?.get("intent") === "note";
  const field = `${idPrefix}-note-body`;
  return (
    <Section title="Internal notes" id={`${idPrefix}-notes`}>
      <p className="mt-1 text-xs text-slate-600">Only the team sees notes.</p>
      {profile.notes.length === 0 ? (
        <p className="mt-2 text-slate-600">No notes yet.</p>
      ) : (
        <ul className="mt-2 space-y-2">
          {profile.notes
            .slice()
            .reverse()
            .map((n) => (
              <li key={n.id}>
                <NoteCard note={n} />
              </li>
            ))}
        </ul>
      )}
      <Form method="post" action={action} className="mt-3 space-y-2" key={profile.notes.length}>
        <input type="hidden" name="intent" value="note" />
        <Label htmlFor={field}>Add a note</Label>
        <Textarea
          id={field}
          name="body"
          rows={2}
          maxLength={NOTE_MAX}
          required
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${field}-error` : undefined}
          className="text-sm"
        />
        {error ? (
          <p id={`${field}-error`} role="alert" className="text-sm font-medium text-red-700">
            {error}
          </p>
        ) : null}
        <Button type="submit" size="sm" variant="outline" loading={adding}>
          Add note
        </Button>
      </Form>
    </Section>
  );
}
