import { supportRoomId } from "~/domain/chat";
import type { ClientSocket } from "~/realtime/use-socket";

/** Browser side of read positions: tell the server, and tell unread badges on this page. */

export const CHAT_READ_EVENT = "brandlift:chat-read";
export type ChatReadDetail = { customerId: string };

/** How long a receipt sent on the socket waits for its answer before it goes over HTTP. */
const READ_ACK_TIMEOUT_MS = 3_000;

const pending = new Map<string, { timer: ReturnType<typeof setTimeout>; lastMessageId: string }>();

function postRead(customerId: string, lastMessageId: string) {
  void fetch("/api/chat/read", {
    method: "POST",
    credentials: "same-origin",
    // A receipt sent as the panel closes (another tab, another page) still goes out.
    keepalive: true,
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify({ userId: customerId, lastMessageId }),
  })
    .then((response) => {
      if (response.ok) window.dispatchEvent(new CustomEvent<ChatReadDetail>(CHAT_READ_EVENT, { detail: { customerId } }));
    })
    .catch((error: unknown) => console.warn("chat read position failed:", error));
}

/**
 * Debounced: a burst of live messages becomes one receipt. Only while the page is visible. With an
 * open socket it is a `read` event (the other side sees "Seen" at once); otherwise an HTTP request.
 */
export function markThreadRead(customerId: string, lastMessageId: string, socket?: ClientSocket | null) {
  if (typeof document === "undefined" || document.visibilityState !== "visible") return;
  clearTimeout(pending.get(customerId)?.timer);
  const timer = setTimeout(() => {
    pending.delete(customerId);
    if (socket?.connected) {
      // A receipt whose answer does not come (the connection dropped under it) or that the server
      // could not store goes again over HTTP: a thread read is never left counted as unread.
      let settled = false;
      const settle = (stored: boolean) => {
        if (settled) return;
        settled = true;
        clearTimeout(unanswered);
        if (stored) window.dispatchEvent(new CustomEvent<ChatReadDetail>(CHAT_READ_EVENT, { detail: { customerId } }));
        else postRead(customerId, lastMessageId);
      };
      const unanswered = setTimeout(() => settle(false), READ_ACK_TIMEOUT_MS);
      socket.emit("read", { roomId: supportRoomId(customerId), messageId: lastMessageId }, (result) => settle(result.ok));
      return;
    }
    postRead(customerId, lastMessageId);
  }, 400);
  pending.set(customerId, { timer, lastMessageId });
}

/** The panel is closing: a receipt still waiting for its debounce goes out now, over HTTP (the socket closes with the panel). */
export function flushThreadRead(customerId: string) {
  const waiting = pending.get(customerId);
  if (!waiting) return;
  clearTimeout(waiting.timer);
  pending.delete(customerId);
  postRead(customerId, waiting.lastMessageId);
}

/** Threads whose chat panel is on screen now (a count, as two panels may show the same thread). */
const open = new Map<string, number>();

/** A chat panel shows this thread until the returned function is called. */
export function openThread(customerId: string): () => void {
  open.set(customerId, (open.get(customerId) ?? 0) + 1);
  return () => {
    const left = (open.get(customerId) ?? 1) - 1;
    if (left > 0) open.set(customerId, left);
    else open.delete(customerId);
  };
}

/** A live message here is being read as it arrives: badges need not count it (no +1 then 0 flicker). */
export function isThreadOnScreen(customerId: string): boolean {
  return open.has(customerId) && typeof document !== "undefined" && document.visibilityState === "visible";
}
