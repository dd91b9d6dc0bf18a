import { Form } from "@remix-run/react";
import { AlertTriangle } from "lucide-react";
import { useEffect, useRef, type ReactNode } from "react";

import { Button, ButtonLink } from "~/components/ui/button";

/**
 * The second step of a money or access action (decision 176): what will happen, said in full, then
 * the confirming button (a danger one) and a way back. It is a plain form: the first post answered
 * with this step, this one posts the same fields with `confirm=yes`, so it works without JavaScript.
 * With JavaScript, focus moves to the step so keyboard and screen-reader users land on it.
 */
export function ConfirmStep({
  title,
  children,
  fields,
  confirmLabel,
  cancelTo,
  cancelLabel = "Keep it as it is",
  busy = false,
  tone = "danger",
}: {
  title: string;
  children: ReactNode;
  /** Hidden fields posted with the confirmation (the first step's values). */
  fields: Record<string, string>;
  confirmLabel: string;
  cancelTo: string;
  cancelLabel?: string;
  busy?: boolean;
  tone?: "danger" | "primary";
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section
      role="alertdialog"
      aria-labelledby="confirm-step-title"
      aria-describedby="confirm-step-text"
      className="space-y-4 rounded-card border-2 border-red-200 bg-red-50/60 p-5 shadow-card"
      data-testid="confirm-step"
    >
      <h3 ref={heading} id="confirm-step-title" tabIndex={-1} className="flex items-center gap-2 text-lg font-bold text-slate-950 outline-none">
        <AlertTriangle aria-hidden="true" className="size-5 shrink-0 text-red-700" />
        {title}
      </h3>
      <div id="confirm-step-text" className="space-y-2 text-sm text-slate-800">
        {children}
      </div>
      <Form method="post" className="flex flex-wrap items-center gap-3">
        {Object.entries(fields).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <input type="hidden" name="confirm" value="yes" />
        <Button type="submit" variant={tone} loading={busy} className="max-w-full whitespace-normal">
          {confirmLabel}
        </Button>
        <ButtonLink to={cancelTo} variant="outline" preventScrollReset>
          {cancelLabel}
        </ButtonLink>
      </Form>
    </section>
  );
}
