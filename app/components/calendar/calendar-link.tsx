import { Form } from "@remix-run/react";

import { Button } from "~/components/ui/button";
import { CopyableValue } from "~/components/ui/copyable-value";

/**
 * The customer's private iCalendar link: shown to copy into a calendar app, copied with a button
 * once JavaScript runs, renewed with a plain form (the old link stops working).
 */
export function CalendarLink({ url }: { url: string }) {
  return (
    <section aria-labelledby="calendar-link-heading" className="space-y-3 rounded-2xl border border-slate-200 bg-white p-4 sm:p-5">
      <h3 id="calendar-link-heading" className="text-lg font-semibold text-slate-950">
        Your calendar app
      </h3>
      <p className="text-sm text-slate-700">
        Subscribe to this private link in Google Calendar, Outlook or Apple Calendar to see your approved and published posts. Anyone with the link can read
        them: renew it if it has been shared by mistake.
      </p>
      <CopyableValue
        id="calendar-link-url"
        testId="calendar-link"
        label="Private iCalendar link"
        value={url}
        copyLabel="Copy link"
        copiedMessage="Link copied."
      >
        <Form method="post">
          <input type="hidden" name="intent" value="renew_link" />
          <Button type="submit" variant="outline" className="w-full sm:w-auto">
            Renew link
          </Button>
        </Form>
      </CopyableValue>
    </section>
  );
}
