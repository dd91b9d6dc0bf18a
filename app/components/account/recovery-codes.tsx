import { Copy, Download } from "lucide-react";
import { useState } from "react";

import { Button, buttonClassName } from "~/components/ui/button";
import { useHydrated } from "~/components/ui/use-hydrated";

/**
 * Recovery codes, shown once: a list, a download (a text file made in the page: works without
 * JavaScript) and, with JavaScript, a copy to the clipboard.
 */
export function RecoveryCodes({ codes, headingId }: { codes: string[]; headingId: string }) {
  const hydrated = useHydrated();
  const [copied, setCopied] = useState<string | null>(null);
  const text = `BrandLift recovery codes (each signs in once)\n\n${codes.join("\n")}\n`;
  return (
    <>
      <ol className="mt-4 grid grid-cols-2 gap-2 font-mono text-base sm:max-w-md" aria-labelledby={headingId}>
        {codes.map((code) => (
          <li key={code} className="rounded-lg bg-slate-100 px-3 py-2 text-center text-slate-900">
            {code}
          </li>
        ))}
      </ol>
      <div className="mt-4 flex flex-wrap items-center gap-3">
        <a
          href={`data:text/plain;charset=utf-8,${encodeURIComponent(text)}`}
          download="brandlift-recovery-codes.txt"
          className={buttonClassName({ variant: "outline", size: "sm" })}
        >
          <Download aria-hidden="true" className="size-4" />
          Download codes
        </a>
        {hydrated ? (
          <Button
            type="button"
            variant="outline"
            size="sm"
            onClick={async () => {
              try {
                await navigator.clipboard.writeText(text);
                setCopied("Copied to the clipboard.");
              } catch {
                setCopied("Your browser did not allow copying: select the codes and copy them, or download them.");
              }
            }}
          >
            <Copy aria-hidden="true" className="size-4" />
            Copy codes
          </Button>
        ) : null}
        <p role="status" className="text-sm text-slate-700">
          {copied}
        </p>
      </div>
    </>
  );
}
