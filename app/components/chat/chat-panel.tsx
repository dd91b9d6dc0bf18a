import { SendHorizontal } from "lucide-react";
import { useEffect, useRef, useState, type FormEvent } from "react";

import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Spinner } from "~/components/ui/spinner";
import { useHydrated } from "~/components/ui/use-hydrated";
import { MESSAGE_MAX_LENGTH } from "~/domain/chat";
import { can, type Actor } from "~/domain/permissions";
import { SocketProvider, useOptionalSocket, useSocketConnection, type SocketStatus } from "~/realtime/use-socket";

import { AttachmentButton } from "./attachment-button";
import { MessageList } from "./message-list";
import { OnlineBadge } from "./online-badge";
import { flushThreadRead, markThreadRead, openThread } from "./read-state";
import { useConversation } from "./use-conversation";
import { useThreadActivity } from "./use-thread-activity";

export interface ChatPanelProps {
  customerId: string;
  serviceId?: string | null;
  serviceName?: string | null;
  currentUser: { id: string; name: string; role: "user" | "team" };
  /** The other side's read receipt when the page loaded ("Seen" survives a reload). */
  seenId?: string | null;
}

/**
 * The support thread `support-{customerId}`: the customer's own, answered by any team member.
 * Uses the page's SocketProvider when there is one, else opens (and on unmount closes) its own.
 */
export function ChatPanel(props: ChatPanelProps) {
  const shared = useOptionalSocket();
  if (!props.customerId) return <ChatSelectNote viewer={props.currentUser} />;
  if (shared) return <ChatPanelBody {...props} />;
  return (
    <SocketProvider>
      <ChatPanelBody {...props} />
    </SocketProvider>
  );
}

/** The spec's notes when no conversation is chosen yet (staff: a user; customers: a service). */
export function ChatSelectNote({ viewer }: { viewer: Actor }) {
  return (
    <p className="rounded-2xl border border-dashed border-slate-300 bg-white px-4 py-10 text-center text-sm text-slate-600">
      {can(viewer, "area:team") ? "Please select a user from the Users tab to start chatting" : "Please select a service to start chatting"}
    </p>
  );
}

const STATUS_TEXT: Record<Exclude<SocketStatus, "connected">, string> = {
  connecting: "Connecting…",
  reconnecting: "Reconnecting…",
  offline: "Offline. Reload the page to reconnect.",
};

function ChatPanelBody({ customerId, serviceId, serviceName, currentUser, seenId = null }: ChatPanelProps) {
  // The connection is open while the chat is on screen; leaving it (another tab) closes it.
  useSocketConnection();
  const hydrated = useHydrated();
  const { socket, status } = useOptionalSocket() ?? { socket: null, status: "connecting" as const };
  const connected = status === "connected";
  const conversation = useConversation({ customerId, socket, connected, serviceId });
  const { messages, send } = conversation;
  const activity = useThreadActivity({ socket, roomId: conversation.roomId, viewerId: currentUser.id, messages, initialSeenId: seenId });
  const [fileError, setFileError] = useState<string | null>(null);
  const [text, setText] = useState("");
  const [sending, setSending] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const isCustomer = can(currentUser, "area:customer");

  // What is on screen counts as read (for unread badges and for grouping notification e-mails).
  useEffect(() => {
    const close = openThread(customerId);
    return () => {
      close();
      flushThreadRead(customerId);
    };
  }, [customerId]);
  const lastId = messages.at(-1)?._id;
  useEffect(() => {
    if (lastId) markThreadRead(customerId, lastId, connected ? socket : null);
  }, [customerId, lastId, connected, socket]);

  // Keep the newest message in view (scrolling the panel, never the page).
  const scroller = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = scroller.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [lastId, conversation.loading]);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const message = text.trim();
    if (!message || !connected || sending) return;
    setSending(true);
    const stored = await send(message);
    setSending(false);
    if (stored) setText("");
    input.current?.focus();
  }

  return (
    <section aria-label="Support chat" className="flex h-[32rem] flex-col overflow-hidden rounded-2xl border border-slate-200 bg-white">
      <header className="flex items-center justify-between gap-3 border-b border-slate-200 px-4 py-3">
        <div>
          <h3 className="text-base font-semibold text-slate-900">{isCustomer ? "Chat with support" : "Support thread"}</h3>
          {isCustomer && serviceName ? <p className="text-xs text-slate-600">About: {serviceName}</p> : null}
          {isCustomer ? null : <OnlineBadge userId={customerId} />}
        </div>
        {!hydrated ? null : connected ? (
          <span className="inline-flex items-center gap-1.5 text-xs font-medium text-emerald-700">
            <span aria-hidden className="size-2 rounded-full bg-emerald-500" /> Connected
          </span>
        ) : (
          <span role="status" className="inline-flex items-center gap-1.5 text-xs font-medium text-amber-700">
            {status === "offline" ? null : <Spinner className="size-3" />} {STATUS_TEXT[status]}
          </span>
        )}
      </header>

      {/* A focusable log, so keyboard users can scroll the conversation (axe: scrollable-region-focusable). */}
      <div
        ref={scroller}
        role="log"
        aria-label="Conversation"
        tabIndex={0}
        className="flex-1 overflow-y-auto px-4 py-4 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-600"
      >
        {!hydrated ? (
          // Said once, and no spinner: live chat truly needs JavaScript.
          <noscript>
            <p className="py-8 text-center text-sm text-slate-700">The chat needs JavaScript. Please enable it to read and send messages.</p>
          </noscript>
        ) : conversation.loading ? (
          <Spinner label="Loading messages" />
        ) : messages.length === 0 ? (
          <p className="py-8 text-center text-sm text-slate-600">{isCustomer ? "No messages yet. Ask us anything about your service." : "No messages yet."}</p>
        ) : (
          <MessageList
            messages={messages}
            currentUserId={currentUser.id}
            hasEarlier={conversation.hasEarlier}
            onLoadEarlier={() => void conversation.loadEarlier()}
            seenOwnId={activity.seenOwnId}
          />
        )}
        {activity.typing ? (
          <p data-testid="typing" className="mt-3 text-xs font-medium text-slate-600 italic">
            {isCustomer ? "Support" : (activity.typing.name ?? "The customer")} is typing…
          </p>
        ) : null}
        {conversation.loadError ? <p className="mt-2 text-sm text-red-700">{conversation.loadError}</p> : null}
      </div>

      <form onSubmit={onSubmit} className="relative border-t border-slate-200 p-3">
        {conversation.sendError || fileError ? (
          <p role="alert" className="mb-2 text-sm font-medium text-red-700">
            {fileError ?? conversation.sendError}
          </p>
        ) : null}
        <div className="flex items-center gap-2">
          <AttachmentButton socket={socket} roomId={conversation.roomId} customerId={customerId} disabled={!connected} onError={setFileError} />
          <Input
            ref={input}
            aria-label="Message"
            placeholder="Type Message Here"
            value={text}
            maxLength={MESSAGE_MAX_LENGTH}
            onChange={(e) => {
              setText(e.target.value);
              if (e.target.value.trim()) activity.typed();
            }}
            disabled={!connected}
            autoComplete="off"
          />
          <Button type="submit" aria-label="Send message" disabled={!connected || !text.trim()} loading={sending} className="shrink-0">
            <SendHorizontal aria-hidden className="size-4" />
            <span className="sr-only sm:not-sr-only">Send</span>
          </Button>
        </div>
      </form>
    </section>
  );
}
