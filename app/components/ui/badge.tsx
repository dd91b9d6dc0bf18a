import type { HTMLAttributes } from "react";

import { cn } from "~/components/ui/cn";
import type { PurchaseStatus } from "~/domain/status";

export type BadgeTone = "neutral" | "brand" | "accent" | "info" | "success" | "warning" | "danger";

const tones: Record<BadgeTone, string> = {
  neutral: "bg-slate-100 text-slate-700 ring-slate-300",
  brand: "bg-brand-50 text-brand-800 ring-brand-200",
  accent: "bg-accent-50 text-accent-800 ring-accent-200",
  info: "bg-sky-50 text-sky-800 ring-sky-200",
  success: "bg-emerald-50 text-emerald-800 ring-emerald-200",
  warning: "bg-amber-50 text-amber-800 ring-amber-200",
  danger: "bg-red-50 text-red-800 ring-red-200",
};

export type BadgeProps = HTMLAttributes<HTMLSpanElement> & { tone?: BadgeTone };

export function Badge({ tone = "neutral", className, ...props }: BadgeProps) {
  return (
    // `badge` is the shared shape (styles/tailwind.css), named once: a list repeats it on every row.
    <span className={cn("badge", tones[tone], className)} {...props} />
  );
}

export const purchaseStatusLabels: Record<PurchaseStatus, string> = {
  pending: "Pending payment",
  in_progress: "In progress",
  completed: "Completed",
  cancelled: "Cancelled",
  refunded: "Refunded",
};

const statusTones: Record<PurchaseStatus, BadgeTone> = {
  pending: "warning",
  in_progress: "info",
  completed: "success",
  cancelled: "neutral",
  refunded: "danger",
};

export function StatusBadge({ status, className }: { status: PurchaseStatus; className?: string }) {
  return (
    <Badge tone={statusTones[status]} className={className}>
      <span aria-hidden="true" className="size-1.5 rounded-full bg-current" />
      {purchaseStatusLabels[status]}
    </Badge>
  );
}
