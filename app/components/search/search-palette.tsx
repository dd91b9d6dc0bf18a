import { Form, Link, useFetcher } from "@remix-run/react";
import { Search } from "lucide-react";
import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";

import { ClientBeside } from "~/components/dashboard/client-beside";
import { cn } from "~/components/ui/cn";
import { Modal } from "~/components/ui/modal";
import { useWhenIdle } from "~/components/ui/use-when-idle";
import { SEARCH_KIND_LABELS, SEARCH_KINDS, SEARCH_MAX_LENGTH, SEARCH_MIN_LENGTH, type SearchAnswer, type SearchHit } from "~/domain/search";

/*
 * Ctrl+K / ⌘K anywhere in the staff dashboard (decision 191): the search as a dialog. Typing asks
 * GET /dashboard/search (the page's loader) for the hits; ↑ and ↓ move through them, Enter opens
 * the one marked (or, with none, the full search page), Escape closes. A combobox with a listbox
 * (WAI-ARIA), so a screen reader hears each hit as it is marked. Without JavaScript there is no
 * shortcut; the sidebar's Search link opens the page.
 */

const DEBOUNCE_MS = 150;
const searchPath = (q: string) => `/dashboard/search?${new URLSearchParams({ q })}`;

export function SearchPalette() {
  const [open, setOpen] = useState(false);
  const [text, setText] = useState("");
  const [active, setActive] = useState(0);
  const fetcher = useFetcher<SearchAnswer>();
  const load = useRef(fetcher.load);
  load.current = fetcher.load;
  const id = useId();
  const optionId = (index: number) => `${id}-option-${index}`;

  useEffect(() => {
    function onKeyDown(event: globalThis.KeyboardEvent) {
      if ((event.metaKey || event.ctrlKey) && !event.altKey && !event.shiftKey && event.key.toLowerCase() === "k") {
        event.preventDefault();
        setOpen(true);
      }
    }
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, []);

  const q = text.trim();
  // One search in flight at a time: a newer query waits for it and then goes, instead of aborting
  // it (an aborted load is wasted work on the server, and Remix logs its abort to the console).
  const search = useWhenIdle(fetcher.state !== "idle", (path: string) => load.current(path), { runMakesBusy: true });
  useEffect(() => {
    if (!open || q.length < SEARCH_MIN_LENGTH || q.length > SEARCH_MAX_LENGTH) return;
    const timer = setTimeout(() => search(searchPath(q)), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [open, q, search]);

  const answer = q.length >= SEARCH_MIN_LENGTH ? fetcher.data : undefined;
  const groups = answer?.groups;
  const hits: { kind: (typeof SEARCH_KINDS)[number]; hit: SearchHit }[] = groups
    ? SEARCH_KINDS.flatMap((kind) => groups[kind].map((hit) => ({ kind, hit })))
    : [];
  const marked = Math.min(active, Math.max(0, hits.length - 1));

  useEffect(() => setActive(0), [answer]);
  useEffect(() => {
    if (open) document.getElementById(`${id}-option-${marked}`)?.scrollIntoView({ block: "nearest" });
  }, [open, id, marked]);

  function close() {
    setOpen(false);
    setActive(0);
  }

  function onInputKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      if (hits.length === 0) return;
      const step = event.key === "ArrowDown" ? 1 : -1;
      setActive((marked + step + hits.length) % hits.length);
    } else if (event.key === "Enter" && hits[marked]) {
      event.preventDefault();
      document.getElementById(optionId(marked))?.click();
    }
  }

  const status =
    q.length < SEARCH_MIN_LENGTH
      ? `Type at least ${SEARCH_MIN_LENGTH} characters.`
      : !answer || fetcher.state === "loading"
        ? "Searching…"
        : answer.problem
          ? answer.problem
          : hits.length === 0
            ? `Nothing matches “${answer.q}”.`
            : `${hits.length} ${hits.length === 1 ? "result" : "results"}. Use the arrow keys and Enter to open one.`;

  let index = -1;
  return (
    <Modal open={open} onClose={close} title="Search" size="lg">
      <Form method="get" action="/dashboard/search" role="search" onSubmit={close}>
        <label htmlFor={`${id}-input`} className="sr-only">
          Search customers, orders, conversations and services
        </label>
        <div className="flex items-center gap-2 rounded-2xl border border-slate-300 px-3 focus-within:border-brand-600 focus-within:ring-2 focus-within:ring-brand-600/30">
          <Search className="size-5 shrink-0 text-slate-500" aria-hidden="true" />
          <input
            id={`${id}-input`}
            type="search"
            name="q"
            role="combobox"
            aria-expanded={hits.length > 0}
            aria-controls={`${id}-listbox`}
            aria-autocomplete="list"
            aria-activedescendant={hits.length > 0 ? optionId(marked) : undefined}
            autoComplete="off"
            maxLength={SEARCH_MAX_LENGTH}
            value={text}
            onChange={(event) => setText(event.target.value)}
            onKeyDown={onInputKeyDown}
            placeholder="Name, e-mail, BL- number, words of a message"
            className="min-h-12 w-full min-w-0 bg-transparent text-base text-slate-950 outline-none placeholder:text-slate-500"
          />
        </div>
      </Form>
      <p role="status" className="mt-3 text-sm text-slate-600">
        {status}
      </p>
      <div id={`${id}-listbox`} role="listbox" aria-label="Search results" className="mt-2 max-h-[55vh] space-y-3 overflow-y-auto">
        {groups
          ? SEARCH_KINDS.filter((kind) => groups[kind].length > 0).map((kind) => (
              <div key={kind} role="group" aria-labelledby={`${id}-${kind}`}>
                <div id={`${id}-${kind}`} role="presentation" className="px-2 py-1 text-xs font-semibold tracking-wide text-slate-600 uppercase">
                  {SEARCH_KIND_LABELS[kind]}
                </div>
                {groups[kind].map((hit) => {
                  index += 1;
                  const selected = index === marked;
                  return (
                    <Link
                      key={hit.id}
                      id={optionId(index)}
                      to={hit.href}
                      role="option"
                      aria-selected={selected}
                      tabIndex={-1}
                      onClick={close}
                      data-testid="search-option"
                      className={cn("block rounded-xl px-3 py-2", selected ? "bg-brand-50 ring-2 ring-brand-600" : "hover:bg-slate-50")}
                    >
                      <span className="block font-semibold break-words text-slate-950">
                        {hit.title}
                        <ClientBeside person={hit.title} client={hit.client} />
                      </span>
                      <span className="block text-sm break-words text-slate-600">{hit.detail}</span>
                    </Link>
                  );
                })}
              </div>
            ))
          : null}
      </div>
      {q.length >= SEARCH_MIN_LENGTH ? (
        <p className="mt-4 border-t border-slate-200 pt-3 text-sm">
          <Link to={searchPath(q)} onClick={close} className="font-semibold text-brand-700 hover:underline">
            Open the search page for “{q}”
          </Link>
        </p>
      ) : null}
    </Modal>
  );
}
