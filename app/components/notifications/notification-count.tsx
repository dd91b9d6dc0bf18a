import { useEffect, useState } from "react";

import { UnreadCount } from "~/components/chat/unread-badge";
import { useOptionalSocket } from "~/realtime/use-socket";

/**
 * The bell's unread count (docs/decisions/289): the loader's figure, then each `notification` the
 * socket brings (it carries the count after it). Marking read on the notifications page reloads the
 * layout's loader, which starts it again from the stored figure.
 */
export function NotificationCount({ initial }: { initial: number }) {
  const { socket } = useOptionalSocket() ?? { socket: null };
  const [count, setCount] = useState(initial);
  useEffect(() => setCount(initial), [initial]);
  useEffect(() => {
    if (!socket) return;
    const onNotification = ({ unread }: { unread: number }) => setCount(unread);
    socket.on("notification", onNotification);
    return () => void socket.off("notification", onNotification);
  }, [socket]);
  return <UnreadCount count={count} label="unread" testId="notification-count" />;
}
