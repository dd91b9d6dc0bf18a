import type { HTMLAttributes } from "react";

import { cn } from "~/components/ui/cn";
import type { PurchaseStatus } from "~/domain/status";

export type BadgeTone = "neutral" | "brand" | "accent" | "info" | "success" | "warning" | "danger";

export type BadgeProps = HTMLAttributes<HTMLSpanElement> & { tone?: BadgeTone };

export function Badge({ tone = "neutral", className, ...props }: BadgeProps) {
  return (
    // `badge` is the shared shape and `badge-<tone>` its colours (styles/tailwind.css), each named once: a list repeats them on every row.
    <span className={cn("badge", `badge-${tone}`, className)} {...props} />
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
