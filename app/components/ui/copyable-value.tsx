import { useState, type ReactNode } from "react";

import { Button } from "~/components/ui/button";
import { Input, Label } from "~/components/ui/input";
import { useHydrated } from "~/components/ui/use-hydrated";

/**
 * A value to copy (a private link, a key shown once): a read-only field that selects itself, a Copy
 * button once JavaScript runs (`withoutJavaScript` in its place before), what follows the button in
 * the same row (`children`), and the copy announced to screen readers.
 */
export function CopyableValue({
  id,
  testId,
  label,
  value,
  copyLabel,
  copiedMessage,
  withoutJavaScript = null,
  children,
}: {
  id: string;
  testId: string;
  label: string;
  value: string;
  copyLabel: string;
  copiedMessage: string;
  withoutJavaScript?: ReactNode;
  children?: ReactNode;
}) {
  const hydrated = useHydrated();
  const [copied, setCopied] = useState(false);
  return (
    <>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
        <div className="min-w-0 flex-1">
          <Label htmlFor={id}>{label}</Label>
          <Input id={id} data-testid={testId} readOnly value={value} onFocus={(event) => event.currentTarget.select()} className="mt-1 font-mono text-sm" />
        </div>
        {hydrated ? (
          <Button
            type="button"
            variant="outline"
            onClick={() =>
              void navigator.clipboard?.writeText(value).then(
                () => setCopied(true),
                () => setCopied(false),
              )
            }
          >
            {copied ? "Copied" : copyLabel}
          </Button>
        ) : (
          withoutJavaScript
        )}
        {children}
      </div>
      <p aria-live="polite" className="sr-only">
        {copied ? copiedMessage : ""}
      </p>
    </>
  );
}
