import { isRouteErrorResponse, Link, useFetcher, useLocation, useRevalidator, useRouteError } from "@remix-run/react";
import { AlertTriangle, RotateCw } from "lucide-react";
import type { FormEvent, ReactNode } from "react";

import { GeneralErrorBoundary } from "~/components/error-boundary";
import { buttonClassName } from "~/components/ui/button";
import { cn } from "~/components/ui/cn";
import { Spinner } from "~/components/ui/spinner";

type SectionErrorProps = {
  /** The spec's error text for this section, e.g. "Failed to load reports". */
  message: string;
  title?: string;
  headingLevel?: "h2" | "h3";
  /** Where Retry goes without JavaScript: this page again (a plain GET). */
  retryHref: string;
  /** With JavaScript: reload just this section's data. */
  onRetry?: () => void;
  retrying?: boolean;
  className?: string;
};

/**
 * A section whose data could not be read: its own error text and a Retry, inside the page that
 * keeps rendering around it. Retry is a GET form, so it works without JavaScript (the page is
 * loaded again); with JavaScript `onRetry` reloads only this section.
 */
export function SectionError({ message, title, headingLevel: Heading = "h3", retryHref, onRetry, retrying = false, className }: SectionErrorProps) {
  const url = new URL(retryHref, "http://x");
  const submit = (event: FormEvent<HTMLFormElement>) => {
    if (!onRetry) return;
    event.preventDefault();
    onRetry();
  };
  return (
    <div
      role="alert"
      data-section-error=""
      className={cn("flex flex-col items-center rounded-card border border-red-200 bg-red-50 px-6 py-10 text-center", className)}
    >
      <span className="mb-3 flex size-11 items-center justify-center rounded-full bg-red-100 text-red-700">
        <AlertTriangle className="size-5" aria-hidden="true" />
      </span>
      {title ? <Heading className="text-lg font-semibold text-slate-950">{title}</Heading> : null}
      <p className={cn("text-sm font-medium text-red-800", title && "mt-1")}>{message}</p>
      <form method="get" action={url.pathname} onSubmit={submit} className="mt-5">
        {[...url.searchParams].map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <button type="submit" className={buttonClassName({ variant: "outline", size: "sm" })} disabled={retrying} aria-busy={retrying || undefined}>
          {retrying ? <Spinner /> : <RotateCw className="size-4" aria-hidden="true" />}
          Retry
        </button>
      </form>
    </div>
  );
}

/**
 * A route's ErrorBoundary for a data section (a dashboard tab): 4xx answers go to `fallback`
 * (not found, not allowed); an outage shows `message` and a Retry that loads only this route's
 * loader with a fetcher (its parents, the sidebar and the overview, are not asked again) and
 * renders the route's view from the fetched data.
 */
export function SectionBoundary<T>({
  message,
  title,
  index = false,
  render,
  fallback,
}: {
  message: string;
  title?: string;
  /** The route is an index route (its fetcher URL needs `?index`). */
  index?: boolean;
  /** The route's view from fetched data. Without it (a layout whose tabs load below it) Retry revalidates the page. */
  render?: (data: T) => ReactNode;
  fallback?: ReactNode;
}) {
  const location = useLocation();
  const fetcher = useFetcher<T>();
  const revalidator = useRevalidator();
  const error = useRouteError();
  // A refusal (403 for a customer on a staff page, 404) is not an outage: no Retry; say so, unless the route has its own view.
  if (isRouteErrorResponse(error) && error.status < 500 && !fallback) return <Refused status={error.status} />;
  if (render && fetcher.state === "idle" && fetcher.data !== undefined) return <>{render(fetcher.data as T)}</>;
  const query = new URLSearchParams(location.search);
  if (index) query.set("index", "");
  const outage = (
    <SectionError
      message={message}
      title={title}
      headingLevel="h2"
      retryHref={`${location.pathname}${location.search}`}
      onRetry={() => (render ? fetcher.load(`${location.pathname}?${query}`) : revalidator.revalidate())}
      retrying={fetcher.state !== "idle" || revalidator.state !== "idle"}
    />
  );
  return (
    <GeneralErrorBoundary defaultStatusHandler={({ error }) => (error.status < 500 && fallback ? fallback : outage)} unexpectedErrorHandler={() => outage} />
  );
}

function Refused({ status }: { status: number }) {
  const [title, text] =
    status === 403
      ? ["Not allowed", "Your account does not have access to this page."]
      : status === 404
        ? ["Not found", "We couldn't find that. It may have been removed, or the link may be mistyped."]
        : ["Request refused", "Please check the address and try again."];
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center gap-3 px-6 py-16 text-center">
      <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase">Error {status}</p>
      <h1 className="text-2xl font-bold text-slate-950">{title}</h1>
      <p className="text-slate-600">{text}</p>
      <Link to="/dashboard" className={buttonClassName({ variant: "outline" })}>
        Go to your dashboard
      </Link>
    </section>
  );
}
