import { useEffect, useRef } from "react";

/**
 * One thing at a time: the returned function runs `run(item)` at once while `busy` is false; while it
 * is true it keeps the newest item (an older one waiting is dropped) and runs it as soon as `busy`
 * turns false. With `runMakesBusy`, a run counts as busy at once, before the next render says so, so
 * a second call in the same moment waits too. The returned function keeps its identity.
 */
export function useWhenIdle<T>(busy: boolean, run: (item: T) => void, { runMakesBusy = false } = {}): (item: T) => void {
  const busyNow = useRef(busy);
  busyNow.current = busy;
  const runLatest = useRef(run);
  runLatest.current = run;
  const waiting = useRef<{ item: T } | null>(null);
  const offer = useRef((item: T) => {
    if (busyNow.current) {
      waiting.current = { item };
      return;
    }
    if (runMakesBusy) busyNow.current = true;
    runLatest.current(item);
  });
  useEffect(() => {
    if (busy || waiting.current === null) return;
    const { item } = waiting.current;
    waiting.current = null;
    offer.current(item);
  }, [busy]);
  return offer.current;
}
