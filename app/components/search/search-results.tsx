import { Form, Link } from "@remix-run/react";
import { Search } from "lucide-react";

import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { SEARCH_KIND_LABELS, SEARCH_KINDS, SEARCH_MAX_LENGTH, type SearchGroups } from "~/domain/search";

/** The search page's form: a plain GET to /dashboard/search (works without JavaScript). */
export function SearchForm({ q }: { q: string }) {
  return (
    <Form method="get" action="/dashboard/search" role="search" className="flex w-full max-w-2xl items-end gap-2">
      <label htmlFor="workspace-search" className="sr-only">
        Search customers, orders, conversations and services
      </label>
      <div className="min-w-0 flex-1">
        <Input
          id="workspace-search"
          type="search"
          name="q"
          defaultValue={q}
          key={q}
          maxLength={SEARCH_MAX_LENGTH}
          placeholder="Name, e-mail, BL- number, words of a message"
        />
      </div>
      <Button type="submit" variant="outline">
        <Search className="size-4" aria-hidden="true" />
        Search
      </Button>
    </Form>
  );
}

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
                  <span className="block font-semibold break-words text-brand-700">{hit.title}</span>
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
