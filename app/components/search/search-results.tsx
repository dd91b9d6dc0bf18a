import { Link } from "@remix-run/react";

import { ClientBeside } from "~/components/dashboard/client-beside";
import { SEARCH_KIND_LABELS, SEARCH_KINDS, type SearchGroups } from "~/domain/search";

/** The hits, one section per kind that has any; each hit a link. */
export function SearchResults({ q, groups }: { q: string; groups: SearchGroups }) {
  const kinds = SEARCH_KINDS.filter((kind) => groups[kind].length > 0);
  if (kinds.length === 0) {
    return (
      <p className="text-slate-700" role="status">
        Nothing matches “{q}”.
      </p>
    );
  }
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      {kinds.map((kind) => (
        <section key={kind} aria-labelledby={`search-${kind}`} className="rounded-card border border-slate-200 bg-white shadow-card">
          <h3 id={`search-${kind}`} className="border-b border-slate-200 px-4 py-3 text-base font-semibold text-slate-950">
            {SEARCH_KIND_LABELS[kind]} <span className="text-sm font-normal text-slate-600">({groups[kind].length})</span>
          </h3>
          <ul className="divide-y divide-slate-100">
            {groups[kind].map((hit) => (
              <li key={hit.id}>
                <Link
                  to={hit.href}
                  className="block px-4 py-3 hover:bg-slate-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-600"
                >
                  <span className="block font-semibold break-words text-brand-700">
                    {hit.title}
                    <ClientBeside person={hit.title} client={hit.client} />
                  </span>
                  <span className="block text-sm break-words text-slate-600">{hit.detail}</span>
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}
