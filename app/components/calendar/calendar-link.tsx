import { Form } from "@remix-run/react";
import { useState } from "react";

import { Button } from "~/components/ui/button";
import { Input, Label } from "~/components/ui/input";
import { useHydrated } from "~/components/ui/use-hydrated";

/**
 * The customer's private iCalendar link: shown to copy into a calendar app, copied with a button
 * once JavaScript runs, renewed with a plain form (the old link stops working).
 */
export function CalendarLink({ url }: { url: string }) {
  const hydrated = useHydrated();
  const [copied, setCopied] = useState(false);
  return (
    <section aria-labelledby="calendar-link-heading" className="space-y-3 rounded-2xl border border-slate-200 bg-white p-4 sm:p-5">
      <h3 id="calendar-link-heading" className="text-lg font-semibold text-slate-950">
        Your calendar app
      </h3>
      <p className="text-sm text-slate-700">
        Subscribe to this private link in Google Calendar, Outlook or Apple Calendar to see your approved and published posts. Anyone with the link can read
        them: renew it if it has been shared by mistake.
      </p>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
        <div className="min-w-0 flex-1">
          <Label htmlFor="calendar-link-url">Private iCalendar link</Label>
          <Input
            id="calendar-link-url"
            data-testid="calendar-link"
            readOnly
            value={url}
            onFocus={(event) => event.currentTarget.select()}
            className="mt-1 font-mono text-sm"
          />
        </div>
        {hydrated ? (
          <Button
            type="button"
            variant="outline"
            onClick={() =>
              void navigator.clipboard?.writeText(url).then(
                () => setCopied(true),
                () => setCopied(false),
              )
            }
          >
            {copied ? "Copied" : "Copy link"}
          </Button>
        ) : null}
        <Form method="post">
          <input type="hidden" name="intent" value="renew_link" />
          <Button type="submit" variant="outline" className="w-full sm:w-auto">
            Renew link
          </Button>
        </Form>
      </div>
      <p aria-live="polite" className="sr-only">
        {copied ? "Link copied." : ""}
      </p>
    </section>
  );
}
