import { FlaskConical } from "lucide-react";

/** The amber "Test mode" pill of the built-in test checkout and test billing pages. */
export function TestModeBadge() {
  return (
    <span className="inline-flex items-center gap-1.5 rounded-full bg-amber-200 px-3 py-1 text-xs font-bold tracking-wide text-amber-950 uppercase">
      <FlaskConical aria-hidden="true" className="size-3.5" />
      Test mode
    </span>
  );
}
