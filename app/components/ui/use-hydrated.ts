import { startTransition, useEffect, useState } from "react";

/**
 * False during the server render and the hydration pass, true afterwards. The switch is a
 * transition: on the landing page it re-renders every section (the JavaScript versions of the
 * pickers, plan buttons and FAQ tabs), and as an ordinary update that was one ~90 ms task on a
 * phone right after hydration; as a transition React renders it in slices, between which the
 * page stays responsive.
 */
export function useHydrated() {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => startTransition(() => setHydrated(true)), []);
  return hydrated;
}
