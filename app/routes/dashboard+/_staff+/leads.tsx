import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";

import { Badge } from "~/components/ui/badge";
import { Pager } from "~/components/ui/pager";
import { SearchForm } from "~/components/ui/search-form";
import { formatDate } from "~/domain/purchase";
import { LEADS_PAGE_SIZE, leadsQuery } from "~/domain/schemas/grader";
import { listLeads } from "~/models/grades.server";
import { requireTeam } from "~/web/auth.server";

/** /dashboard/leads (staff): visitors who graded their page and left an e-mail, with their grade and whether they bought. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireTeam(request);
  const url = new URL(request.url);
  const parsed = leadsQuery.safeParse({ search: url.searchParams.get("search") || undefined, page: url.searchParams.get("page") || undefined });
  const query = parsed.success ? parsed.data : { page: 1, limit: LEADS_PAGE_SIZE, search: undefined };
  const { leads, total } = await listLeads(query);
  return { leads, total, page: query.page, search: query.search ?? "", pages: Math.max(1, Math.ceil(total / LEADS_PAGE_SIZE)), invalid: !parsed.success };
}

export default function LeadsPage() {
  const { leads, total, page, pages, search, invalid } = useLoaderData<typeof loader>();
  return (
    // A section with an h2 like every other dashboard page (the layout's h1 is the welcome).
    <section aria-labelledby="leads-heading" className="space-y-6">
      <div>
        <h2 id="leads-heading" className="text-xl font-bold text-slate-950">
          Leads
        </h2>
        <p className="text-sm text-slate-600">Visitors who graded their social media page and asked for the report: {total.toLocaleString("en-US")} in all.</p>
      </div>
      <SearchForm action="/dashboard/leads" id="leads-search" label="Search leads by e-mail or name" placeholder="Search by e-mail or name" value={search} />
      {invalid ? (
        <p role="alert" className="text-red-700">
          That search could not be read; showing every lead.
        </p>
      ) : null}
      {leads.length === 0 ? (
        <p className="text-sm text-slate-600">
          {search ? `No leads match "${search}".` : "No leads yet. They arrive when visitors grade their page at /grade and leave an e-mail."}
        </p>
      ) : (
        <>
          {/* Phones: one card per lead (four columns do not fit 390 px); from sm the table. */}
          <ul aria-label="Leads" className="divide-y divide-slate-200 rounded-card border border-slate-200 bg-white shadow-card sm:hidden">
            {leads.map((lead) => (
              <li key={lead.id} className="space-y-1 px-4 py-3 text-sm">
                <div className="flex items-start justify-between gap-3">
                  <p className="min-w-0 font-semibold break-words text-slate-950">{lead.name ?? "—"}</p>
                  <Link to={`/grade/${lead.grade.id}`} className="shrink-0 font-semibold text-brand-700 underline-offset-4 hover:underline">
                    {lead.grade.overall} ({lead.grade.score}/100)
                  </Link>
                </div>
                <p className="break-all text-slate-600">{lead.email}</p>
                <p className="flex flex-wrap items-center gap-2 text-slate-700">
                  Graded {formatDate(lead.createdAt)} ·{" "}
                  {lead.customer ? (
                    <Link to={`/dashboard/users/${lead.customer.id}`}>
                      <Badge tone="success">customer</Badge>
                    </Link>
                  ) : (
                    <span className="text-slate-600">not a customer yet</span>
                  )}
                </p>
              </li>
            ))}
          </ul>
          <div className="relative overflow-x-auto rounded-card border border-slate-200 bg-white shadow-card max-sm:hidden">
            <table className="w-full min-w-[40rem] bg-white text-left text-sm">
              <thead className="bg-slate-50 text-slate-700">
                <tr>
                  <th scope="col" className="px-4 py-3">
                    Lead
                  </th>
                  <th scope="col" className="px-4 py-3">
                    Grade
                  </th>
                  <th scope="col" className="px-4 py-3">
                    Graded
                  </th>
                  <th scope="col" className="px-4 py-3">
                    Customer
                  </th>
                </tr>
              </thead>
              <tbody>
                {leads.map((lead) => (
                  <tr key={lead.id} className="border-t border-slate-200">
                    <td className="px-4 py-3">
                      <p className="font-semibold text-slate-950">{lead.name ?? "—"}</p>
                      <p className="break-all text-slate-600">{lead.email}</p>
                    </td>
                    <td className="px-4 py-3">
                      <Link to={`/grade/${lead.grade.id}`} className="font-semibold text-brand-700 underline-offset-4 hover:underline">
                        {lead.grade.overall} ({lead.grade.score}/100)
                      </Link>
                    </td>
                    <td className="px-4 py-3 whitespace-nowrap">{formatDate(lead.createdAt)}</td>
                    <td className="px-4 py-3">
                      {lead.customer ? (
                        <Link to={`/dashboard/users/${lead.customer.id}`}>
                          <Badge tone="success">customer</Badge>
                        </Link>
                      ) : (
                        <span className="text-slate-600">not yet</span>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
      <Pager page={page} pages={pages} path="/dashboard/leads" keep={{ search }} />
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: "Leads | BrandLift" }];
