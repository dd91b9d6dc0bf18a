import { Form } from "@remix-run/react";

import { Badge, type BadgeTone } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import type { ListedEmail } from "~/domain/email";
import { formatDate } from "~/domain/purchase";

const STATE: Record<ListedEmail["state"], [string, BadgeTone]> = {
  queued: ["Queued", "info"],
  sent: ["Sent", "success"],
  retrying: ["Retrying", "warning"],
  failed: ["Failed", "danger"],
};

/** The e-mails of an order or a customer, with their state and a "Send again" button (works without JavaScript). */
export function EmailList({ emails, back, headingId }: { emails: ListedEmail[]; back: string; headingId: string }) {
  return (
    <section aria-labelledby={headingId} className="rounded-card border border-slate-200 bg-white p-5 shadow-card">
      <h3 id={headingId} className="font-bold text-slate-950">
        E-mails
      </h3>
      {emails.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">No e-mails yet.</p>
      ) : (
        <ul className="mt-3 divide-y divide-slate-200">
          {emails.map((email) => {
            const [label, tone] = STATE[email.state];
            return (
              <li key={email.id} className="flex flex-wrap items-start justify-between gap-3 py-3 text-sm">
                <div className="min-w-0 space-y-1">
                  <p className="font-medium text-slate-900">{email.subject}</p>
                  <p className="break-all text-slate-600">
                    To {email.recipient} · <time dateTime={email.createdAt}>{formatDate(email.createdAt)}</time>
                    {email.attempts > 1 ? ` · ${email.attempts} attempts` : ""}
                  </p>
                  {email.state !== "sent" && email.lastError ? <p className="break-all text-xs text-slate-600">Last error: {email.lastError}</p> : null}
                </div>
                <div className="flex items-center gap-2">
                  <Badge tone={tone}>{label}</Badge>
                  <Form method="post" action={`/dashboard/emails/${email.id}/resend`}>
                    <input type="hidden" name="back" value={back} />
                    <Button type="submit" variant="outline" size="sm">
                      Send again<span className="sr-only">: {email.subject}</span>
                    </Button>
                  </Form>
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
