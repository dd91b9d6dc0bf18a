import type { ComponentType, ReactNode } from "react";

import { cn } from "~/components/ui/cn";

type EmptyStateProps = {
  /** A lucide-react icon or one of the sprite's (~/components/ui/icons). */
  icon?: ComponentType<{ className?: string }>;
  title: string;
  text?: ReactNode;
  /** A button or link, e.g. "Retry". */
  action?: ReactNode;
  headingLevel?: "h2" | "h3";
  className?: string;
};

export function EmptyState({ icon: Icon, title, text, action, headingLevel: Heading = "h3", className }: EmptyStateProps) {
  return (
    <div className={cn("flex flex-col items-center rounded-card border border-dashed border-slate-300 bg-slate-50 px-6 py-12 text-center", className)}>
      {Icon ? (
        <span className="mb-4 flex size-12 items-center justify-center rounded-full bg-brand-100 text-brand-700">
          <Icon className="size-6" />
        </span>
      ) : null}
      <Heading className="text-lg font-semibold text-slate-950">{title}</Heading>
      {text ? <div className="mt-2 max-w-md text-sm text-slate-600">{text}</div> : null}
      {action ? <div className="mt-6">{action}</div> : null}
    </div>
  );
}
