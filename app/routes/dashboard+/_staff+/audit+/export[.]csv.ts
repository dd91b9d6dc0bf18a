import type { LoaderFunctionArgs } from "@remix-run/node";

import { auditQuery } from "~/domain/schemas/audit";
import { auditCsvStream } from "~/models/audit.server";
import { jsonError } from "~/utils/http.server";
import { requireTeam } from "~/web/auth.server";

/** GET /dashboard/audit/export.csv[?actorId=&action=] (staff): every matching audit entry as CSV, streamed. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireTeam(request);
  const parsed = auditQuery.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) return jsonError(400, parsed.error.issues[0]?.message ?? "Invalid filter.", "INVALID_INPUT");
  return new Response(auditCsvStream(parsed.data), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="audit-${new Date().toISOString().slice(0, 10)}.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
}
