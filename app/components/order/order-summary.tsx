import { cn } from "~/components/ui/cn";
import { formatCents } from "~/domain/format";

export interface SummaryLine {
  name: string;
  amountCents: number;
  quantity?: number;
  recurring?: boolean;
}

/** Lines with their prices and the total, as a definition list that screen readers read in pairs. */
export function OrderSummary({ lines, className }: { lines: SummaryLine[]; className?: string }) {
  const totalCents = lines.reduce((sum, line) => sum + line.amountCents * (line.quantity ?? 1), 0);
  const recurring = lines.some((line) => line.recurring);
  const suffix = recurring ? "/mo" : "";
  return (
    <dl className={cn("divide-y divide-slate-200 rounded-2xl border border-slate-200 bg-slate-50", className)}>
      {lines.map((line) => (
        <div key={line.name} className="flex items-baseline justify-between gap-4 px-4 py-3">
          <dt className="text-sm font-medium text-slate-800">{line.name}</dt>
          <dd className="text-sm font-semibold text-slate-950 tabular-nums">
            {formatCents(line.amountCents * (line.quantity ?? 1))}
            {suffix}
          </dd>
        </div>
      ))}
      <div className="flex items-baseline justify-between gap-4 px-4 py-3">
        <dt className="font-semibold text-slate-950">Total</dt>
        <dd className="text-lg font-bold text-slate-950 tabular-nums" data-testid="order-total">
          {formatCents(totalCents)}
          {suffix}
        </dd>
      </div>
    </dl>
  );
}
