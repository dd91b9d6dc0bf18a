import type { ComponentType, ReactNode } from "react";

import { cn } from "~/components/ui/cn";

type StatCardProps = {
  label: string;
  value: ReactNode;
  /** A lucide-react icon or one of the sprite's (~/components/ui/icons). */
  icon?: ComponentType<{ className?: string; "aria-hidden"?: boolean | "true" }>;
  className?: string;
};

/** One figure with its label, e.g. "Total Revenue" / "$1,280.00". */
export function StatCard({ label, value, icon: Icon, className }: StatCardProps) {
  return (
    // Only the label/value pair is a definition list (axe: a <dl> holds only <dt>/<dd> groups).
    <div className={cn("flex items-center gap-4 rounded-card border border-slate-200 bg-white p-5 shadow-card", className)}>
      {Icon ? (
        <span className="flex size-12 shrink-0 items-center justify-center rounded-2xl bg-brand-50 text-brand-700">
          <Icon className="size-6" aria-hidden="true" />
        </span>
      ) : null}
      <dl className="min-w-0">
        <dt className="text-sm font-medium text-slate-600">{label}</dt>
        <dd className="mt-1 text-2xl font-bold tracking-tight text-slate-950 tabular-nums [overflow-wrap:anywhere]">{value}</dd>
      </dl>
    </div>
  );
}
