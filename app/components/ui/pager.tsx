import { ButtonLink } from "~/components/ui/button";
import { cn } from "~/components/ui/cn";

type PagerProps = {
  page: number;
  pages: number;
  /** The list's path, e.g. "/dashboard/orders". */
  path: string;
  /** The query parameters every page link keeps (filters, search); empty values are dropped, `page` is set by the pager. */
  keep?: Record<string, string | null | undefined>;
  /** The navigation's accessible name. */
  label?: string;
  className?: string;
};

/** The link to one page of a list: `path?kept&page=n`. */
function pageHref(path: string, keep: PagerProps["keep"], page: number) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(keep ?? {})) if (value && key !== "page") params.set(key, value);
  params.set("page", String(page));
  return `${path}?${params}`;
}

/**
 * Previous / "Page n of m" / Next under a paged list: plain links (works without JavaScript),
 * rendered only when there is more than one page.
 */
export function Pager({ page, pages, path, keep, label = "Pages", className }: PagerProps) {
  if (pages <= 1) return null;
  return (
    <nav aria-label={label} className={cn("flex flex-wrap items-center justify-between gap-2", className)}>
      {page > 1 ? (
        <ButtonLink to={pageHref(path, keep, page - 1)} variant="outline" size="sm" rel="prev">
          Previous
        </ButtonLink>
      ) : (
        <span />
      )}
      <p className="text-sm text-slate-600">
        Page {page} of {pages}
      </p>
      {page < pages ? (
        <ButtonLink to={pageHref(path, keep, page + 1)} variant="outline" size="sm" rel="next">
          Next
        </ButtonLink>
      ) : (
        <span />
      )}
    </nav>
  );
}
