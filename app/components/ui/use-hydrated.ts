import { useEffect, useState } from "react";

/** False during the server render and the hydration pass, true afterwards. */
export function useHydrated() {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
