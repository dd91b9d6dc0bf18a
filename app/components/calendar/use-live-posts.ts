import { useRevalidator } from "@remix-run/react";
import { useEffect, useRef } from "react";

import { TIME_ZONE_COOKIE } from "~/domain/calendar";
import { useOptionalSocket, useSocketConnection } from "~/realtime/use-socket";

/**
 * A calendar page kept live: every `postUpdated` (the other side approved, staff rescheduled…)
 * reloads the page's data, so filters, the window and the quota stay the server's; a burst of
 * events reloads once. Also tells the server the browser's time zone (the `tz` cookie) and reloads
 * when it differs from the one the page was drawn in.
 */
export function useLivePosts(timeZone: string) {
  useSocketConnection();
  const { socket } = useOptionalSocket() ?? { socket: null };
  const { revalidate } = useRevalidator();
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => {
    if (!socket) return;
    const onUpdated = () => {
      clearTimeout(timer.current);
      timer.current = setTimeout(revalidate, 150);
    };
    socket.on("postUpdated", onUpdated);
    return () => {
      socket.off("postUpdated", onUpdated);
      clearTimeout(timer.current);
    };
  }, [socket, revalidate]);

  useEffect(() => {
    const browser = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const wanted = `${TIME_ZONE_COOKIE}=${encodeURIComponent(browser)}`;
    // Already told (a zone the server does not know stays UTC there): never reload twice.
    if (!browser || browser === timeZone || document.cookie.split("; ").includes(wanted)) return;
    document.cookie = `${wanted}; Path=/; Max-Age=31536000; SameSite=Lax`;
    revalidate();
  }, [timeZone, revalidate]);
}
