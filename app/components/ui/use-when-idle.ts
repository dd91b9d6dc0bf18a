import { useEffect, useRef } from "react";

/**
 * One thing at a time: the returned function runs `run(item)` at once while `busy` is false; while it
 * is true it keeps the newest item (an older one waiting is dropped) and runs it as soon as `busy`
 * turns false. With `runMakesBusy`, a run counts as busy at once, before the next render says so, so
 * a second call in the same moment waits too. `isBusyNow`, where given, is asked too: a reading of
 * the same state that can be ahead of the render (a render in a transition can lag behind, and an
 * urgent render in between still shows the state before). The returned function keeps its identity.
 */
export function useWhenIdle<T>(
  busy: boolean,
  run: (item: T) => void,
  { runMakesBusy = false, isBusyNow }: { runMakesBusy?: boolean; isBusyNow?: () => boolean } = {},
): (item: T) => void {
  const busyNow = useRef(busy);
  busyNow.current = busy;
  const runLatest = useRef(run);
  runLatest.current = run;
  const waiting = useRef<{ item: T } | null>(null);
  const askBusy = useRef(isBusyNow);
  askBusy.current = isBusyNow;
  const offer = useRef((item: T) => {
    if (busyNow.current || askBusy.current?.()) {
      waiting.current = { item };
      // Busy by the reading ahead only: its end may never show as a render of busy, so look again.
      if (!busyNow.current) setTimeout(lookAgain, 50);
      return;
    }
    if (runMakesBusy) busyNow.current = true;
    runLatest.current(item);
  });
  /** The waiting item, offered again (it waits once more if the reading ahead still says busy). */
  function offerWaiting() {
    if (waiting.current === null) return;
    const { item } = waiting.current;
    waiting.current = null;
    offer.current(item);
  }
  /** While no render says busy, the waiting item goes once the reading ahead says idle too. */
  function lookAgain() {
    if (!busyNow.current) offerWaiting();
  }
  useEffect(() => {
    if (!busy) offerWaiting();
  }, [busy]);
  return offer.current;
}
