import { useCallback, useEffect, useRef, useState, type ReactNode } from "react";

import { cn } from "~/components/ui/cn";
import { Spinner } from "~/components/ui/spinner";
import { useHydrated } from "~/components/ui/use-hydrated";
import type { ChatThreadPage } from "~/domain/chat";
import type { ThreadNote } from "~/domain/inbox";
import { can, type Actor } from "~/domain/permissions";
import { SocketProvider, useOptionalSocket, useSocketConnection, type SocketStatus } from "~/realtime/use-socket";

import { Composer } from "./composer";
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
  /** Staff's internal notes, shown between the messages by time (never sent to the customer). */
  notes?: ThreadNote[];
  /** Staff tools above the message box (saved replies); `insert` adds text to the draft. */
  composerTools?: (insert: (text: string) => void) => ReactNode;
  /** Sizing from the page around it (the inbox fills its pane); a fixed height otherwise. */
  className?: string;
  /**
   * The thread as the page's loader read it, and the page's action sends its message form: the
   * chat works without JavaScript (decision 266), and the socket carries it live on top.
   */
  page: {
    thread: ChatThreadPage;
    /** The page's address (the form posts to it; earlier messages are `?before=` on it). */
    location: { pathname: string; search: string };
    /** The page's message form was refused: why, and the text to put back in the box. */
    error?: string | null;
    /** The box's text as the page came (a saved reply put in without JavaScript, a refused message's text). */
    draft?: string;
  };
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

/** The page's address with `before` set (an older page) or removed; the saved reply put in (`insert`) goes when a message is posted. */
function pageLinks(location: { pathname: string; search: string }) {
  const at = (before: string | null, dropInsert = false) => {
    const params = new URLSearchParams(location.search);
    if (before) params.set("before", before);
    else params.delete("before");
    if (dropInsert) params.delete("insert");
    const query = params.toString();
    return `${location.pathname}${query ? `?${query}` : ""}`;
  };
  return { before: (id: string) => at(id), newest: at(null), action: at(null, true) };
}

function ChatPanelBody({ customerId, serviceId, serviceName, currentUser, seenId = null, notes, composerTools, className, page }: ChatPanelProps) {
  // The connection is open while the chat is on screen; leaving it (another tab) closes it.
  useSocketConnection();
  const hydrated = useHydrated();
  const links = pageLinks(page.location);
  const { socket, status } = useOptionalSocket() ?? { socket: null, status: "connecting" as const };
  const connected = status === "connected";
  const conversation = useConversation({ customerId, socket, connected, serviceId, initial: page.thread });
  const { messages } = conversation;
  // The page form's refusal shows until the next send.
  const [formError, setFormError] = useState(page.error ?? null);
  useEffect(() => setFormError(page.error ?? null), [page.error]);
  const liveSend = conversation.send;
  const send = useCallback(
    (text: string, attachmentId?: string) => {
      setFormError(null);
      return liveSend(text, attachmentId);
    },
    [liveSend],
  );
  const serverRendered = !hydrated;
  const activity = useThreadActivity({ socket, roomId: conversation.roomId, viewerId: currentUser.id, messages, initialSeenId: seenId });
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
    if (!lastId) return;
    const mark = () => markThreadRead(customerId, lastId, connected ? socket : null);
    mark();
    // Opened in a tab that is not in front: it counts as read when the reader comes to it.
    const onVisible = () => {
      if (document.visibilityState === "visible") mark();
    };
    document.addEventListener("visibilitychange", onVisible);
    return () => document.removeEventListener("visibilitychange", onVisible);
  }, [customerId, lastId, connected, socket]);

  // Keep the newest message in view (scrolling the panel, never the page), also when a thumbnail
  // above it finishes loading and grows the log, unless the reader has scrolled up.
  const scroller = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const lastTop = useRef(0);
  const toBottom = () => {
    const el = scroller.current;
    if (el) el.scrollTop = el.scrollHeight;
  };
  useEffect(() => {
    atBottom.current = true;
    toBottom();
  }, [lastId, conversation.loading]);

  return (
    <section aria-label="Support chat" className={cn("flex h-[32rem] flex-col overflow-hidden rounded-2xl border border-slate-200 bg-white", className)}>
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
        onScroll={(e) => {
          // Only the reader scrolling up leaves the bottom: the scroll event of our own jump to the
          // bottom can arrive after a thumbnail grew the log, and must not read as "scrolled up".
          const el = e.currentTarget;
          const up = el.scrollTop < lastTop.current;
          lastTop.current = el.scrollTop;
          if (el.scrollHeight - el.scrollTop - el.clientHeight < 48) atBottom.current = true;
          else if (up) atBottom.current = false;
        }}
        onLoadCapture={() => {
          if (atBottom.current) toBottom();
        }}
        role="log"
        aria-label="Conversation"
        tabIndex={0}
        className="flex-1 overflow-y-auto px-4 py-4 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-600"
      >
        {conversation.loading ? (
          <Spinner label="Loading messages" />
        ) : messages.length === 0 ? (
          <p className="py-8 text-center text-sm text-slate-600">{isCustomer ? "No messages yet. Ask us anything about your service." : "No messages yet."}</p>
        ) : (
          <MessageList
            messages={messages}
            currentUserId={currentUser.id}
            hasEarlier={conversation.hasEarlier}
            onLoadEarlier={() => void conversation.loadEarlier()}
            earlierHref={serverRendered && messages[0] ? links.before(messages[0]._id) : undefined}
            seenOwnId={activity.seenOwnId}
            notes={notes}
          />
        )}
        {serverRendered && page.thread.before ? (
          <p className="mt-3 text-center">
            <a href={links.newest} className="text-sm font-semibold text-brand-700 hover:underline">
              Show the newest messages
            </a>
          </p>
        ) : null}
        {activity.typing ? (
          <p data-testid="typing" className="mt-3 text-xs font-medium text-slate-600 italic">
            {isCustomer ? "Support" : (activity.typing.name ?? "The customer")} is typing…
          </p>
        ) : null}
        {conversation.loadError ? <p className="mt-2 text-sm text-red-700">{conversation.loadError}</p> : null}
      </div>

      <Composer
        roomId={conversation.roomId}
        connected={connected}
        error={conversation.sendError ?? formError}
        send={send}
        onTyped={activity.typed}
        tools={composerTools}
        action={links.action}
        initialText={page.draft}
      />
    </section>
  );
}
