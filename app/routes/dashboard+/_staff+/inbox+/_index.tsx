import type { LoaderFunctionArgs } from "@remix-run/node";

import { requireTeam } from "~/web/auth.server";

/** /dashboard/inbox with no thread open. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireTeam(request);
  return null;
}

export default function InboxIndex() {
  return (
    <p className="rounded-2xl border border-dashed border-slate-300 bg-white px-4 py-10 text-center text-sm text-slate-600">
      Select a conversation to read and answer it.
    </p>
  );
}
