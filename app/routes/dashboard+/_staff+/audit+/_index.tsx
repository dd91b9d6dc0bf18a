import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { Download, Filter, History } from "lucide-react";

import { ListFilterStatus } from "~/components/dashboard/list-filter-status";
import { PageHeader } from "~/components/dashboard/page-header";
import { DashboardRouteError } from "~/components/dashboard/route-error";
import { Badge } from "~/components/ui/badge";
import { Button, ButtonLink } from "~/components/ui/button";
import { EmptyState } from "~/components/ui/empty-state";
import { Field, Select } from "~/components/ui/input";
import { Pager } from "~/components/ui/pager";
import { AUDIT_ACTION_KEYS, AUDIT_PAGE_SIZE, auditActionLabel, auditTargetHref, formatAuditTime, type AuditEntry } from "~/domain/audit";
import { countOf } from "~/domain/format";
import { auditQuery } from "~/domain/schemas/audit";
import { listAudit, listAuditActors } from "~/models/audit.server";
import { requireTeam } from "~/web/auth.server";

/**
 * /dashboard/audit?actorId=&action=&page= (staff): who did what to money, access and what customers
 * see, newest first, filtered by staff member and action, exported as CSV. A filter the schema
 * refuses shows its message and the whole log. Plain GET forms and links: no JavaScript needed.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireTeam(request);
  // The filter form sends "Everyone" and "Every action" as "": they mean no filter.
  const raw = Object.fromEntries([...new URL(request.url).searchParams].filter(([key, value]) => value !== "" && key !== "limit"));
  const parsed = auditQuery.safeParse(raw);
  const query = parsed.success ? parsed.data : auditQuery.parse({});
  const [{ entries, total }, actors] = await Promise.all([listAudit(query), listAuditActors()]);
  return {
    entries,
    total,
    actors,
    page: query.page,
    pages: Math.max(1, Math.ceil(total / AUDIT_PAGE_SIZE)),
    filter: { actorId: query.actorId ?? "", action: query.action ?? "" },
    filterError: parsed.success ? null : (parsed.error.issues[0]?.message ?? "Invalid filter."),
  };
}

export default function AuditLog() {
  const { entries, total, actors, page, pages, filter, filterError } = useLoaderData<typeof loader>();
  const kept = Object.entries(filter).filter(([, value]) => value) as [string, string][];
  const filtered = kept.length > 0;
  return (
    <section aria-labelledby="audit-heading" className="space-y-4">
      <PageHeader
        id="audit-heading"
        title="Audit log"
        description="Every staff action that changes money, access or what a customer sees. Entries are only ever added."
        actions={
          <ButtonLink to={`/dashboard/audit/export.csv?${new URLSearchParams(kept)}`} reloadDocument variant="outline" size="sm">
            <Download className="size-4" aria-hidden="true" />
            Export CSV
          </ButtonLink>
        }
      />
      <Form
        method="get"
        aria-label="Filter the audit log"
        className="grid gap-3 rounded-card border border-slate-200 bg-white p-4 shadow-card sm:grid-cols-[1fr_1fr_auto]"
      >
        <Field id="audit-actor" label="Staff member">
          <Select id="audit-actor" name="actorId" defaultValue={filter.actorId} key={filter.actorId}>
            <option value="">Everyone</option>
            {actors.map((actor) => (
              <option key={actor.id} value={actor.id}>
                {actor.name}
              </option>
            ))}
          </Select>
        </Field>
        <Field id="audit-action" label="Action">
          <Select id="audit-action" name="action" defaultValue={filter.action} key={filter.action}>
            <option value="">Every action</option>
            {AUDIT_ACTION_KEYS.map((action) => (
              <option key={action} value={action}>
                {auditActionLabel(action)}
              </option>
            ))}
          </Select>
        </Field>
        <div className="flex items-end gap-2">
          <Button type="submit" variant="outline" size="sm">
            <Filter className="size-4" aria-hidden="true" />
            Apply filters
          </Button>
          {filtered ? (
            <ButtonLink to="/dashboard/audit" variant="ghost" size="sm">
              Clear
            </ButtonLink>
          ) : null}
        </div>
      </Form>
      <ListFilterStatus error={filterError} count={countOf(total, "entry", "entries")} />
      {entries.length === 0 ? (
        <EmptyState
          icon={filtered ? Filter : History}
          title={filtered ? "No entries match these filters" : "Nothing recorded yet"}
          text={
            filtered
              ? "Try another staff member or action."
              : "Refunds, price changes, invitations, report uploads and the like appear here as staff make them."
          }
        />
      ) : (
        <ol aria-label="Audit entries" className="divide-y divide-slate-200 rounded-card border border-slate-200 bg-white shadow-card">
          {entries.map((entry) => (
            <EntryRow key={entry.id} entry={entry} />
          ))}
        </ol>
      )}
      <Pager page={page} pages={pages} path="/dashboard/audit" keep={filter} label="Audit log pages" />
    </section>
  );
}

function EntryRow({ entry }: { entry: AuditEntry }) {
  const href = auditTargetHref(entry.target.kind, entry.target.id);
  return (
    <li data-testid="audit-entry" className="grid gap-1 px-4 py-3 text-sm sm:grid-cols-[11rem_minmax(0,1fr)] sm:gap-4">
      <time dateTime={entry.createdAt} className="text-slate-600">
        {formatAuditTime(entry.createdAt)}
      </time>
      <div className="min-w-0 space-y-1">
        <p className="flex flex-wrap items-center gap-2">
          <span className="font-semibold text-slate-950">{entry.actor.name || "Someone"}</span>
          <Badge tone="brand">{auditActionLabel(entry.action)}</Badge>
          {href ? (
            <Link to={href} className="min-w-0 font-semibold break-words text-brand-700 underline-offset-4 hover:underline">
              {entry.target.label}
            </Link>
          ) : (
            <span className="min-w-0 font-semibold break-words text-slate-950">{entry.target.label}</span>
          )}
        </p>
        {entry.detail ? <p className="break-words text-slate-700">{entry.detail}</p> : null}
      </div>
    </li>
  );
}

export const meta: MetaFunction = () => [{ title: "Audit log — BrandLift dashboard" }];

export function ErrorBoundary() {
  return <DashboardRouteError backTo="/dashboard" backLabel="Back to the overview" />;
}
