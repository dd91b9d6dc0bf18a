import { CircleCheck, CircleDollarSign, Mail, RotateCcw, ShoppingCart, Wrench, type LucideIcon } from "lucide-react";

import type { TimelineEntry, TimelineKind } from "~/domain/order-timeline";

const ICONS: Record<TimelineKind, LucideIcon> = {
  created: ShoppingCart,
  paid: CircleDollarSign,
  refund: RotateCcw,
  email: Mail,
  status: CircleCheck,
  work: Wrench,
};

const when = (iso: string) => new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }).format(new Date(iso)) + " UTC";

/** An order's history: what happened, when, and who did it, oldest first. */
export function OrderTimeline({ entries }: { entries: TimelineEntry[] }) {
  return (
    <section aria-labelledby="order-history-heading" className="rounded-card border border-slate-200 bg-white p-5 shadow-card">
      <h3 id="order-history-heading" className="font-bold text-slate-950">
        History
      </h3>
      <ol className="mt-3 space-y-0" aria-label="Order history">
        {entries.map((entry, index) => {
          const Icon = ICONS[entry.kind];
          return (
            <li key={index} className="relative flex gap-3 pb-4 last:pb-0" data-testid="timeline-entry" data-kind={entry.kind}>
              {index < entries.length - 1 ? <span aria-hidden="true" className="absolute top-8 bottom-0 left-4 w-px bg-slate-200" /> : null}
              <span className="flex size-8 shrink-0 items-center justify-center rounded-full bg-brand-50 text-brand-700">
                <Icon aria-hidden="true" className="size-4" />
              </span>
              <div className="min-w-0 text-sm">
                <p className="font-semibold break-words text-slate-950">{entry.title}</p>
                {entry.detail ? <p className="break-words text-slate-700">{entry.detail}</p> : null}
                <p className="text-xs text-slate-500">
                  <time dateTime={entry.at}>{when(entry.at)}</time> · by <span className="break-words">{entry.actor}</span>
                </p>
              </div>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
