import { NavLink } from "@remix-run/react";
import { useId, useRef, useState, type KeyboardEvent, type ReactNode } from "react";

import { cn } from "~/components/ui/cn";

export type TabItem = {
  value: string;
  label: ReactNode;
  content: ReactNode;
};

type TabsProps = {
  items: readonly TabItem[];
  /** Accessible name of the tab list, e.g. "Packages". */
  label: string;
  value?: string;
  defaultValue?: string;
  onValueChange?: (value: string) => void;
  className?: string;
  listClassName?: string;
  panelClassName?: string;
};

const tabClassName =
  "inline-flex min-h-11 flex-1 items-center justify-center gap-2 rounded-full px-4 text-sm font-semibold whitespace-nowrap " +
  "text-slate-700 transition-colors hover:text-slate-950 " +
  "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600";

const selectedTabClassName = "bg-white text-brand-700 shadow-sm hover:text-brand-700";

/**
 * WAI-ARIA tabs with automatic activation: arrow keys, Home and End move between tabs.
 * Controlled with `value` + `onValueChange`, or uncontrolled with `defaultValue`.
 */
export function Tabs({ items, label, value, defaultValue, onValueChange, className, listClassName, panelClassName }: TabsProps) {
  const baseId = useId();
  const [uncontrolled, setUncontrolled] = useState(defaultValue ?? items[0]?.value);
  const selected = value ?? uncontrolled;
  const tabRefs = useRef(new Map<string, HTMLButtonElement>());

  function select(next: string) {
    if (value === undefined) setUncontrolled(next);
    onValueChange?.(next);
  }

  function handleKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const index = items.findIndex((item) => item.value === selected);
    const last = items.length - 1;
    const nextIndex = {
      ArrowRight: index >= last ? 0 : index + 1,
      ArrowLeft: index <= 0 ? last : index - 1,
      Home: 0,
      End: last,
    }[event.key];
    const next = nextIndex === undefined ? undefined : items[nextIndex];
    if (!next) return;
    event.preventDefault();
    select(next.value);
    tabRefs.current.get(next.value)?.focus();
  }

  const tabId = (item: TabItem) => `${baseId}-tab-${item.value}`;
  const panelId = (item: TabItem) => `${baseId}-panel-${item.value}`;

  return (
    <div className={className}>
      <div
        role="tablist"
        aria-label={label}
        onKeyDown={handleKeyDown}
        className={cn("flex gap-1 overflow-x-auto rounded-full bg-slate-100 p-1", listClassName)}
      >
        {items.map((item) => {
          const isSelected = item.value === selected;
          return (
            <button
              key={item.value}
              ref={(node) => {
                if (node) tabRefs.current.set(item.value, node);
                else tabRefs.current.delete(item.value);
              }}
              type="button"
              role="tab"
              id={tabId(item)}
              aria-selected={isSelected}
              aria-controls={panelId(item)}
              tabIndex={isSelected ? 0 : -1}
              onClick={() => select(item.value)}
              className={cn(tabClassName, isSelected && selectedTabClassName)}
            >
              {item.label}
            </button>
          );
        })}
      </div>
      {items.map((item) => (
        <div
          key={item.value}
          role="tabpanel"
          id={panelId(item)}
          aria-labelledby={tabId(item)}
          hidden={item.value !== selected}
          tabIndex={0}
          className={cn("mt-5 rounded-lg focus-visible:outline-2 focus-visible:outline-brand-600", panelClassName)}
        >
          {item.content}
        </div>
      ))}
    </div>
  );
}

export type TabLinkItem = {
  to: string;
  label: ReactNode;
  /** Match the URL exactly, as NavLink's `end`. */
  end?: boolean;
};

/**
 * URL-driven tabs: a nav of Remix NavLinks that look like tabs and work without JavaScript.
 * The active link carries aria-current="page".
 */
export function TabLinks({ items, label, className }: { items: readonly TabLinkItem[]; label: string; className?: string }) {
  return (
    <nav aria-label={label} className={className}>
      <ul className="flex gap-1 overflow-x-auto rounded-full bg-slate-100 p-1">
        {items.map((item) => (
          <li key={item.to} className="flex flex-1">
            <NavLink
              to={item.to}
              end={item.end}
              prefetch="intent"
              preventScrollReset
              className={({ isActive }) => cn(tabClassName, isActive && selectedTabClassName)}
            >
              {item.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
