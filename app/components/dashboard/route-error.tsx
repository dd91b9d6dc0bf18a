import { AlertTriangle, SearchX } from "lucide-react";

import { GeneralErrorBoundary } from "~/components/error-boundary";
import { ButtonLink } from "~/components/ui/button";
import { EmptyState } from "~/components/ui/empty-state";

/** A detail view's error inside the dashboard, so the sidebar and a way back stay on screen. */
export function DashboardRouteError({ backTo, backLabel }: { backTo: string; backLabel: string }) {
  const view = (notFound: boolean) => <RouteErrorView notFound={notFound} backTo={backTo} backLabel={backLabel} />;
  return (
    <GeneralErrorBoundary statusHandlers={{ 404: () => view(true) }} defaultStatusHandler={() => view(false)} unexpectedErrorHandler={() => view(false)} />
  );
}

function RouteErrorView({ notFound, backTo, backLabel }: { notFound: boolean; backTo: string; backLabel: string }) {
  return (
    <EmptyState
      icon={notFound ? SearchX : AlertTriangle}
      headingLevel="h2"
      title={notFound ? "Not found" : "Something went wrong"}
      text={notFound ? "We couldn't find that. It may have been removed, or the link may be mistyped." : "Please try again in a moment."}
      action={
        <ButtonLink to={backTo} variant="outline">
          {backLabel}
        </ButtonLink>
      }
    />
  );
}
