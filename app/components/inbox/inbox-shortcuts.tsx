import { useNavigation, useRevalidator } from "@remix-run/react";
import { Keyboard } from "lucide-react";
import { useCallback, useEffect, useState } from "react";

import { Button } from "~/components/ui/button";
import { Modal } from "~/components/ui/modal";
import { useHydrated } from "~/components/ui/use-hydrated";
import { useWhenIdle } from "~/components/ui/use-when-idle";

/*
 * The inbox from the keyboard (decision 247, like Linear and Help Scout). Keys act on what the page
 * already shows: j/k move the focus through the thread links (Enter follows the focused link, as
 * any link), r focuses the message box, e and a press the page's own Close/Reopen and "Assign to
 * me" buttons, so every shortcut does exactly what its form does without JavaScript.
 *
 * A form's key pressed while the page is still sending or loading (the previous form's page data,
 * a revalidation) is kept and pressed once the page is idle: the button it means may still be busy
 * then, or relabelled live by the socket before its form's data came, and a key is never dropped
 * (docs/decisions/248-inbox-keys-wait-for-idle.md).
 */

export const INBOX_SHORTCUTS: ReadonlyArray<readonly [key: string, what: string]> = [
  ["j", "Next conversation"],
  ["k", "Previous conversation"],
  ["Enter", "Open the selected conversation"],
  ["r", "Reply"],
  ["e", "Close or reopen the conversation"],
  ["a", "Assign the conversation to me"],
  ["/", "Search"],
  ["?", "Show these shortcuts"],
];

/** Keys that send one of the page's forms. */
const FORM_KEYS = new Set(["e", "a"]);

/** Where typing goes: keys pressed there are text, never shortcuts. */
const TYPING = 'input, textarea, select, [contenteditable=""], [contenteditable="true"]';

function press(selector: string): boolean {
  const button = document.querySelector<HTMLButtonElement>(selector);
  if (!button || button.disabled) return false;
  button.click();
  return true;
}

function moveThroughThreads(step: 1 | -1): boolean {
  const links = Array.from(document.querySelectorAll<HTMLAnchorElement>("[data-thread-list] > li > a"));
  if (links.length === 0) return false;
  const focused = links.indexOf(document.activeElement as HTMLAnchorElement);
  const open = links.findIndex((link) => link.getAttribute("aria-current") === "page");
  const from = focused >= 0 ? focused : open;
  const next = from < 0 ? (step === 1 ? 0 : links.length - 1) : Math.min(links.length - 1, Math.max(0, from + step));
  links[next]!.focus();
  links[next]!.scrollIntoView({ block: "nearest" });
  return true;
}

function handle(key: string, showHelp: () => void): boolean {
  switch (key) {
    case "j":
      return moveThroughThreads(1);
    case "k":
      return moveThroughThreads(-1);
    case "r": {
      const composer = document.querySelector<HTMLElement>("[data-composer]");
      if (!composer || (composer as HTMLInputElement).disabled) return false;
      composer.focus();
      return true;
    }
    case "e":
      return press('[data-shortcut="status"]');
    case "a":
      return press('[data-shortcut="assign-me"]');
    case "/": {
      const search = document.getElementById("inbox-search");
      search?.focus();
      return !!search;
    }
    case "?":
      showHelp();
      return true;
    default:
      return false;
  }
}

/** Listens while the inbox is on screen; a "Keyboard shortcuts" button and `?` open the list. */
export function InboxShortcuts() {
  const [helpOpen, setHelpOpen] = useState(false);
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const press = useCallback((key: string) => handle(key, () => setHelpOpen(true)), []);
  /** A form's key pressed while the page was busy is pressed when it is idle again. */
  const pressWhenIdle = useWhenIdle(navigation.state !== "idle" || revalidator.state !== "idle", press);
  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return;
      const target = event.target instanceof Element ? event.target : null;
      if (target?.closest(TYPING) || document.querySelector('[role="dialog"]')) return;
      if (FORM_KEYS.has(event.key)) {
        event.preventDefault();
        pressWhenIdle(event.key);
        return;
      }
      if (press(event.key)) event.preventDefault();
    }
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, [press, pressWhenIdle]);
  // Shortcuts need JavaScript: without it there is no button promising them.
  if (!hydrated) return null;
  return (
    <>
      <Button type="button" variant="ghost" size="sm" onClick={() => setHelpOpen(true)} aria-keyshortcuts="Shift+?" title="Keyboard shortcuts (?)">
        <Keyboard className="size-4" aria-hidden="true" />
        <span className="max-2xl:sr-only">Keyboard shortcuts</span>
      </Button>
      <Modal open={helpOpen} onClose={() => setHelpOpen(false)} title="Keyboard shortcuts" size="sm">
        <dl className="grid grid-cols-[auto_1fr] items-center gap-x-4 gap-y-2 text-sm">
          {INBOX_SHORTCUTS.map(([key, what]) => (
            <div key={key} className="contents">
              <dt>
                <kbd className="inline-flex min-w-8 justify-center rounded-md border border-slate-300 bg-slate-50 px-2 py-0.5 font-mono text-slate-900">
                  {key}
                </kbd>
              </dt>
              <dd className="text-slate-700">{what}</dd>
            </div>
          ))}
        </dl>
        <p className="mt-4 text-xs text-slate-600">Keys typed in a text field stay text.</p>
      </Modal>
    </>
  );
}
