import type { ReactNode } from "react";

import { cn } from "~/components/ui/cn";

type SectionHeadingProps = {
  id: string;
  eyebrow: string;
  title: string;
  children?: ReactNode;
  tone?: "light" | "dark";
  className?: string;
};

/** Eyebrow, h2 (referenced by the section's aria-labelledby) and an intro paragraph. */
export function SectionHeading({ id, eyebrow, title, children, tone = "light", className }: SectionHeadingProps) {
  const dark = tone === "dark";
  return (
    <div className={cn("mx-auto max-w-2xl text-center", className)}>
      <p className={cn("text-sm font-semibold tracking-widest uppercase", dark ? "text-accent-300" : "text-brand-700")}>{eyebrow}</p>
      <h2 id={id} className={cn("mt-3 text-headline font-bold", dark ? "text-white" : "text-slate-950")}>
        {title}
      </h2>
      {children ? <p className={cn("mt-4 text-lg leading-relaxed", dark ? "text-slate-300" : "text-slate-600")}>{children}</p> : null}
    </div>
  );
}
