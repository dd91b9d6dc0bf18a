import { isRouteErrorResponse, useParams, useRouteError, type Params } from "@remix-run/react";
import type { ReactNode } from "react";

type ErrorResponse = { status: number; statusText: string; data: unknown };
export type StatusHandler = (info: { error: ErrorResponse; params: Params }) => ReactNode;

/**
 * The one error boundary (after the Epic Stack's GeneralErrorBoundary). A thrown Response goes to
 * the handler of its status, else to `defaultStatusHandler`; anything else (a bug, an outage) to
 * `unexpectedErrorHandler`. Each route's `ErrorBoundary` is this with the views of its screen;
 * the server builds its 404 with `pageNotFound()` (app/web/guards.server.ts).
 */
export function GeneralErrorBoundary({
  defaultStatusHandler = ({ error }) => <p>{`${error.status} ${typeof error.data === "string" ? error.data : error.statusText}`}</p>,
  statusHandlers,
  unexpectedErrorHandler = () => <p>Something went wrong. Please try again in a moment.</p>,
}: {
  defaultStatusHandler?: StatusHandler;
  statusHandlers?: Record<number, StatusHandler>;
  unexpectedErrorHandler?: (error: unknown) => ReactNode;
}) {
  const error = useRouteError();
  const params = useParams();
  if (isRouteErrorResponse(error)) return <>{(statusHandlers?.[error.status] ?? defaultStatusHandler)({ error, params })}</>;
  return <>{unexpectedErrorHandler(error)}</>;
}
