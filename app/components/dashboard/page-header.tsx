import type { ReactNode } from "react";

/**
 * The top of a staff tool (decision 155): its heading, one line on what it is for, and its primary
 * actions, all above the fold. The layout's h1 names the dashboard; this is the page's h2.
 */
export function PageHeader({ id, title, description, actions }: { id: string; title: ReactNode; description?: ReactNode; actions?: ReactNode }) {
  return (
    <header className="flex flex-wrap items-end justify-between gap-3">
      <div className="min-w-0">
        <h2 id={id} className="text-2xl font-bold tracking-tight text-slate-950">
          {title}
        </h2>
        {description ? <p className="mt-1 text-slate-600">{description}</p> : null}
      </div>
      {actions ? <div className="flex flex-wrap gap-2">{actions}</div> : null}
    </header>
  );
}
