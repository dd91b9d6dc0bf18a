import { useEffect } from "react";

/**
 * A page load that another navigation or form interrupts is aborted on purpose: Remix then rejects
 * the promises of the data it was still streaming (a dashboard's deferred sections) with the abort,
 * and nothing awaits them any more, so the browser reports an unhandled AbortError for each. That
 * rejection is the interruption working, not a failure: it is marked handled here, and only it (any
 * other unhandled rejection is reported as before). Upstream: remix-run/react-router#14761.
 */
export function useQuietAbortedLoads() {
  useEffect(() => {
    const onRejection = (event: PromiseRejectionEvent) => {
      const reason: unknown = event.reason;
      if (reason instanceof DOMException && reason.name === "AbortError") event.preventDefault();
    };
    window.addEventListener("unhandledrejection", onRejection);
    return () => window.removeEventListener("unhandledrejection", onRejection);
  }, []);
}
