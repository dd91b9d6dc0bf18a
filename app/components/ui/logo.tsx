import { cn } from "~/components/ui/cn";

type LogoProps = {
  className?: string;
  /** "light" for dark backgrounds. */
  tone?: "dark" | "light";
};

/** The BrandLift mark (a rising bar chart in a speech bubble) and wordmark. Not a link by itself. */
export function Logo({ className, tone = "dark" }: LogoProps) {
  return (
    <span className={cn("inline-flex items-center gap-2.5", className)}>
      <LogoMark className="size-9 shrink-0" />
      <span className={cn("font-display text-xl font-extrabold tracking-tight", tone === "light" ? "text-white" : "text-slate-950")}>
        Brand<span className={tone === "light" ? "text-accent-300" : "text-brand-600"}>Lift</span>
      </span>
    </span>
  );
}

export function LogoMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 40 40" aria-hidden="true" focusable="false" className={className}>
      <path d="M10 2h20a8 8 0 0 1 8 8v16a8 8 0 0 1-8 8H17l-7 5v-5a8 8 0 0 1-8-8V10a8 8 0 0 1 8-8Z" fill="#5b3df5" />
      <rect x="10" y="19" width="5" height="9" rx="1.5" fill="#fff" opacity="0.7" />
      <rect x="17.5" y="14" width="5" height="14" rx="1.5" fill="#fff" opacity="0.85" />
      <rect x="25" y="9" width="5" height="19" rx="1.5" fill="#fdba74" />
    </svg>
  );
}
