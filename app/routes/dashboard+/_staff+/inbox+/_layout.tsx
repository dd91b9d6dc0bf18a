import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, Outlet, useLoaderData, useParams } from "@remix-run/react";

import { DashboardRouteError } from "~/components/dashboard/route-error";
import { InboxShortcuts } from "~/components/inbox/inbox-shortcuts";
import { ThreadList } from "~/components/inbox/thread-list";
import { useInboxThreads } from "~/components/inbox/use-inbox";
import { cn } from "~/components/ui/cn";
import { Pager } from "~/components/ui/pager";
import { SearchForm } from "~/components/ui/search-form";
import { countMatching, countOf } from "~/domain/format";
import { INBOX_FILTERS, INBOX_PAGE_SIZE, toInboxRow, type InboxFilter } from "~/domain/inbox";
import { controlCharacterMessage, hasControlCharacters } from "~/domain/zod";
import { listThreads } from "~/models/inbox.server";
import { requireTeam } from "~/web/auth.server";

/**
 * /dashboard/inbox (team): every support thread, latest message first, live; the open thread
 * beside it (dashboard.inbox.$customerId). Filters: all, unassigned, mine, closed; search by
 * name, e-mail or message text. Plain links and a GET form: it works without JavaScript. From
 * 1024 px the list, the open conversation and the customer share one screen, each pane scrolling
 * on its own; phones show one at a time (docs/decisions/185). Keyboard: components/inbox/inbox-shortcuts.tsx.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const staff = await requireTeam(request);
  const url = new URL(request.url);
  const search = (url.searchParams.get("search") ?? "").trim().slice(0, 200);
  if (hasControlCharacters(search)) throw new Response(controlCharacterMessage("The search"), { status: 400 });
  const requested = url.searchParams.get("filter") ?? "all";
  const filter: InboxFilter = (INBOX_FILTERS as readonly string[]).includes(requested) ? (requested as InboxFilter) : "all";
  const page = Math.min(Math.max(1, Number.parseInt(url.searchParams.get("page") ?? "1", 10) || 1), 100_000);
  const { threads, total } = await listThreads({ filter, search, page, viewerId: staff.id });
  // Each thread as its row (decision 320): what the list shows, not the whole thread.
  return { threads: threads.map(toInboxRow), total, filter, search, page, pages: Math.max(1, Math.ceil(total / INBOX_PAGE_SIZE)), staffId: staff.id };
}

const FILTER_LABELS: Record<InboxFilter, string> = { all: "All", unassigned: "Unassigned", mine: "Mine", closed: "Closed" };

export default function InboxLayout() {
  const { threads: initial, total, filter, search, page, pages, staffId } = useLoaderData<typeof loader>();
  // Phones show one pane at a time: the list, or the open thread (dashboard.inbox.$customerId).
  const threadOpen = !!useParams().customerId;
  const { threads, typingRooms } = useInboxThreads(initial, { filter, viewerId: staffId, searching: !!search });
  const query = (changes: Record<string, string | null>) => {
    const params = new URLSearchParams({ ...(filter !== "all" ? { filter } : {}), ...(search ? { search } : {}), ...(page > 1 ? { page: String(page) } : {}) });
    for (const [k, v] of Object.entries(changes)) {
      if (v === null) params.delete(k);
      else params.set(k, v);
    }
    const s = params.toString();
    return s ? `?${s}` : "";
  };
  return (
    <section aria-labelledby="inbox-heading" className="flex flex-col gap-3 lg:h-[calc(100dvh-2rem)] lg:[body:has(>aside)_&]:h-[calc(100dvh-3.75rem)]">
      <div className={cn("flex flex-wrap items-center gap-x-3 gap-y-2", threadOpen && "max-lg:sr-only")}>
        <h2 id="inbox-heading" className="text-2xl font-bold tracking-tight text-slate-950">
          Inbox
        </h2>
        <nav aria-label="Inbox filters" className="flex flex-wrap gap-2">
          {INBOX_FILTERS.map((f) => (
            <Link
              key={f}
              to={`/dashboard/inbox${query({ filter: f === "all" ? null : f, page: null })}`}
              aria-current={f === filter ? "page" : undefined}
              className="filter-chip"
            >
              {FILTER_LABELS[f]}
            </Link>
          ))}
        </nav>
        <SearchForm
          action="/dashboard/inbox"
          id="inbox-search"
          label="Search conversations by name, e-mail or text"
          placeholder="Search by name, e-mail or text"
          value={search}
          keep={{ filter: filter === "all" ? null : filter }}
          className="max-w-none min-w-0 items-center sm:w-auto sm:min-w-56 sm:flex-1 lg:max-w-md"
          buttonTextClassName="lg:max-xl:sr-only"
        />
        <Link to="/dashboard/saved-replies" className="text-sm font-semibold text-brand-700 hover:underline">
          Saved replies
        </Link>
        <div className="max-lg:hidden">
          <InboxShortcuts />
        </div>
      </div>
      <div className="grid min-h-0 flex-1 grid-cols-[minmax(0,1fr)] gap-3 lg:grid-cols-[14rem_minmax(0,1fr)] xl:grid-cols-[17rem_minmax(0,1fr)] 2xl:grid-cols-[20rem_minmax(0,1fr)]">
        <div aria-label="Conversation list" role="region" className={cn("min-h-0 min-w-0 space-y-3 lg:overflow-y-auto", threadOpen && "max-lg:hidden")}>
          <p className="text-sm text-slate-600" aria-live="polite">
            {search ? `${countMatching(total, "conversation")} “${search}”` : countOf(total, "conversation")}
          </p>
          <ThreadList
            threads={threads}
            typingRooms={typingRooms}
            linkSuffix={query({})}
            emptyText={search ? "No conversation matches that search." : "Messages from customers and visitors appear here."}
          />
          <Pager page={page} pages={pages} path="/dashboard/inbox" keep={{ filter: filter === "all" ? null : filter, search }} label="Inbox pages" />
        </div>
        <div className={cn("min-h-0 min-w-0", !threadOpen && "max-lg:hidden")}>
          <Outlet />
        </div>
      </div>
    </section>
  );
}

/** The inbox is a workspace: the dashboard gives it the whole screen beside the sidebar. */
export const handle = { workspace: true };

export const meta: MetaFunction = () => [{ title: "Inbox — BrandLift dashboard" }];

export function ErrorBoundary() {
  return <DashboardRouteError backTo="/dashboard" backLabel="Back to the dashboard" />;
}
