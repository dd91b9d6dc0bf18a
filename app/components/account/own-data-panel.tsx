import { Download, Trash2 } from "lucide-react";

import { buttonClassName, ButtonLink } from "~/components/ui/button";

/**
 * The account page's "Your data": a download of everything kept about the account (a plain link:
 * the browser saves the zip, no JavaScript needed) and, for customers, the way to delete it.
 */
export function OwnDataPanel({ canDelete }: { canDelete: boolean }) {
  return (
    <div className="rounded-card border border-slate-200 bg-white p-6 shadow-card">
      <h3 id="own-data-heading" className="mb-3 flex items-center gap-2 text-lg font-semibold text-slate-950">
        <Download aria-hidden="true" className="size-5" />
        Your data
      </h3>
      <p className="text-sm text-slate-600">
        Download a zip of everything we keep about your account: your profile, orders, plans, receipts and messages as <code>account.json</code>, and your
        report files.
      </p>
      <div className="mt-4 flex flex-wrap gap-3">
        <a href="/api/account/export" download className={buttonClassName({ variant: "outline" })}>
          <Download aria-hidden="true" className="size-4" />
          Download your data
        </a>
        {canDelete ? (
          <ButtonLink to="/dashboard/account/delete" variant="outline" className="text-red-700">
            <Trash2 aria-hidden="true" className="size-4" />
            Delete your account…
          </ButtonLink>
        ) : null}
      </div>
    </div>
  );
}
