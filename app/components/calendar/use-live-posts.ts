import { useFetchers, useNavigation, useRevalidator } from "@remix-run/react";
import { useCallback, useEffect, useRef } from "react";

import { TIME_ZONE_COOKIE } from "~/domain/calendar";
import { useOptionalSocket, useSocketConnection } from "~/realtime/use-socket";

/**
 * A calendar page kept live: every `postUpdated` (the other side approved, staff rescheduled…)
 * reloads the page's data, so filters, the window and the quota stay the server's; a burst of
 * events reloads once. Also tells the server the browser's time zone (the `tz` cookie) and reloads
 * when it differs from the one the page was drawn in.
 * A reload never starts while a navigation, a form post or another reload is under way: Remix would
 * abort that request to start its own (an unhandled AbortError in the browser); it waits for the
 * page to be idle, and the data it then loads includes whatever the event announced.
 */
export function useLivePosts(timeZone: string) {
  useSocketConnection();
  const { socket } = useOptionalSocket() ?? { socket: null };
  const { revalidate, state: revalidation } = useRevalidator();
  const navigation = useNavigation();
  const fetchers = useFetchers();
  const busy = navigation.state !== "idle" || revalidation !== "idle" || fetchers.some((fetcher) => fetcher.state !== "idle");
  const busyRef = useRef(busy);
  busyRef.current = busy;
  const waiting = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const reload = useCallback(() => {
    if (busyRef.current) waiting.current = true;
    else revalidate();
  }, [revalidate]);

  useEffect(() => {
    if (busy || !waiting.current) return;
    waiting.current = false;
    revalidate();
  }, [busy, revalidate]);

  useEffect(() => {
    if (!socket) return;
    const onUpdated = () => {
      clearTimeout(timer.current);
      timer.current = setTimeout(reload, 150);
    };
    socket.on("postUpdated", onUpdated);
    return () => {
      socket.off("postUpdated", onUpdated);
      clearTimeout(timer.current);
    };
  }, [socket, reload]);

  useEffect(() => {
    const browser = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const wanted = `${TIME_ZONE_COOKIE}=${encodeURIComponent(browser)}`;
    // Already told (a zone the server does not know stays UTC there): never reload twice.
    if (!browser || browser === timeZone || document.cookie.split("; ").includes(wanted)) return;
    document.cookie = `${wanted}; Path=/; Max-Age=31536000; SameSite=Lax`;
    reload();
  }, [timeZone, reload]);
}
