import { Form, useNavigation } from "@remix-run/react";

import { Button } from "~/components/ui/button";
import { cn } from "~/components/ui/cn";
import { Search } from "~/components/ui/icons";
import { Input } from "~/components/ui/input";

type SearchFormProps = {
  /** Where the GET form goes, e.g. "/dashboard/users". */
  action: string;
  /** The search box's id (keyboard shortcuts focus it by id). */
  id: string;
  /** The search box's accessible name (visually hidden). */
  label: string;
  placeholder: string;
  value: string;
  /** The query parameter the box sends; "search" unless told. */
  name?: string;
  /** Other query parameters the search keeps (e.g. the inbox filter); empty values are dropped. */
  keep?: Record<string, string | null | undefined>;
  maxLength?: number;
  className?: string;
  /** Classes for the button's word "Search" (e.g. hidden on narrow panes; it stays the accessible name). */
  buttonTextClassName?: string;
};

/**
 * A list's search: a plain GET form (works without JavaScript) with a labelled search box and a
 * Search button that spins while the results load.
 */
export function SearchForm({ action, id, label, placeholder, value, name = "search", keep, maxLength, className, buttonTextClassName }: SearchFormProps) {
  const navigation = useNavigation();
  const loading = navigation.state === "loading" && navigation.location.pathname === action;
  return (
    <Form method="get" action={action} role="search" className={cn("flex w-full max-w-md items-end gap-2", className)}>
      {Object.entries(keep ?? {}).map(([key, kept]) => (kept ? <input key={key} type="hidden" name={key} value={kept} /> : null))}
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <div className="min-w-0 flex-1">
        <Input id={id} type="search" name={name} defaultValue={value} key={value} maxLength={maxLength} placeholder={placeholder} />
      </div>
      <Button type="submit" variant="outline" loading={loading}>
        <Search className="size-4" aria-hidden="true" />
        <span className={buttonTextClassName}>Search</span>
      </Button>
    </Form>
  );
}
