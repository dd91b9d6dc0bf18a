import { X } from "lucide-react";
import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode, type RefObject } from "react";
import { createPortal } from "react-dom";

import { cn } from "~/components/ui/cn";
import { useHydrated } from "~/components/ui/use-hydrated";

export type ModalSize = "sm" | "md" | "lg" | "xl";

const widths: Record<ModalSize, string> = {
  sm: "max-w-md",
  md: "max-w-lg",
  lg: "max-w-2xl",
  xl: "max-w-4xl",
};

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), ' +
  'textarea:not([disabled]), summary, [tabindex]:not([tabindex="-1"])';
const FIELDS = 'input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled])';

type ModalProps = {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  description?: ReactNode;
  children: ReactNode;
  size?: ModalSize;
  /**
   * Receives focus on open. Otherwise an `autoFocus` element keeps it, else the first form field,
   * else the dialog itself, so long content opens scrolled to its title.
   */
  initialFocusRef?: RefObject<HTMLElement>;
  className?: string;
  /**
   * A modal whose open state lives in the URL (`?upload=…`, `?service=…`): before hydration (and
   * without JavaScript) the close button is a link there; once hydrated it is a button calling `onClose`.
   */
  closeHref?: string;
};

const closeClassName =
  "-m-1.5 flex size-11 shrink-0 items-center justify-center rounded-full text-slate-600 hover:bg-slate-100 hover:text-slate-950 focus-visible:outline-2 focus-visible:outline-brand-600";

function focusableIn(container: HTMLElement) {
  return Array.from(container.querySelectorAll<HTMLElement>(FOCUSABLE)).filter((el) => !el.hasAttribute("inert") && el.getClientRects().length > 0);
}

/**
 * Accessible modal dialog. Once hydrated it renders at the root (a portal into <body>), so no
 * ancestor (a transformed one, or a `content-visibility` section, which becomes the containing block
 * of `fixed`) can draw it inside a section. Before hydration and without JavaScript it renders in
 * place (server HTML has no portals); the stylesheet lifts containment from a section holding an
 * open modal (tailwind.css). Forms go inside the modal, never around it.
 */
export function Modal({ open, onClose, title, description, children, size = "md", initialFocusRef, className, closeHref }: ModalProps) {
  const titleId = useId();
  const descriptionId = useId();
  const panelRef = useRef<HTMLDivElement>(null);
  const pressStartedOnBackdrop = useRef(false);
  const hydrated = useHydrated();
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;

  useEffect(() => {
    if (!open) return;
    const { body, documentElement } = document;
    const previousOverflow = body.style.overflow;
    const previousPadding = body.style.paddingRight;
    const scrollbarWidth = window.innerWidth - documentElement.clientWidth;
    body.style.overflow = "hidden";
    if (scrollbarWidth > 0) body.style.paddingRight = `${scrollbarWidth}px`;
    return () => {
      body.style.overflow = previousOverflow;
      body.style.paddingRight = previousPadding;
    };
  }, [open]);

  useEffect(() => {
    if (!open) return;
    const previouslyFocused = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const panel = panelRef.current;
    if (panel && !panel.contains(document.activeElement)) {
      const firstField = panel.querySelector<HTMLElement>(FIELDS);
      (initialFocusRef?.current ?? firstField ?? panel).focus();
    }
    return () => previouslyFocused?.focus();
  }, [open, initialFocusRef]);

  if (!open) return null;

  function handleKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key === "Escape") {
      event.stopPropagation();
      onCloseRef.current();
      return;
    }
    const panel = panelRef.current;
    if (event.key !== "Tab" || !panel) return;
    const focusable = focusableIn(panel);
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (!first || !last) {
      event.preventDefault();
      panel.focus();
    } else if (event.shiftKey && (document.activeElement === first || document.activeElement === panel)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  }

  const dialog = (
    // The backdrop is a mouse convenience; keyboard users close with Escape or the close button.
    <div
      className="fixed inset-0 z-50 flex items-end justify-center overflow-y-auto bg-slate-950/70 p-3 backdrop-blur-sm sm:items-center sm:p-6"
      onKeyDown={handleKeyDown}
      onMouseDown={(event) => {
        pressStartedOnBackdrop.current = event.target === event.currentTarget;
      }}
      onClick={(event) => {
        if (pressStartedOnBackdrop.current && event.target === event.currentTarget) onCloseRef.current();
        pressStartedOnBackdrop.current = false;
      }}
      data-modal-backdrop=""
    >
      <div
        ref={panelRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={description ? descriptionId : undefined}
        tabIndex={-1}
        className={cn("relative my-auto w-full rounded-card bg-white text-slate-900 shadow-2xl focus-visible:outline-none", widths[size], className)}
      >
        <div className="flex items-start justify-between gap-4 border-b border-slate-200 px-5 py-4 sm:px-6">
          <div className="min-w-0">
            <h2 id={titleId} className="text-xl font-semibold text-slate-950">
              {title}
            </h2>
            {description ? (
              <p id={descriptionId} className="mt-1 text-sm text-slate-600">
                {description}
              </p>
            ) : null}
          </div>
          {closeHref && !hydrated ? (
            <a href={closeHref} aria-label="Close" className={closeClassName}>
              <X className="size-5" aria-hidden="true" />
            </a>
          ) : (
            <button type="button" onClick={() => onCloseRef.current()} aria-label="Close" className={closeClassName}>
              <X className="size-5" aria-hidden="true" />
            </button>
          )}
        </div>
        <div className="px-5 py-5 sm:px-6">{children}</div>
      </div>
    </div>
  );
  return hydrated ? createPortal(dialog, document.body) : dialog;
}
