import { useEffect, useState } from "react";

/** Whether this page has hydrated: a component mounted after it starts hydrated, with no second render. */
let pageHydrated = false;

/** False during the server render and the hydration pass, true afterwards. */
export function useHydrated() {
  const [hydrated, setHydrated] = useState(pageHydrated);
  useEffect(() => {
    pageHydrated = true;
    setHydrated(true);
  }, []);
  return hydrated;
}
