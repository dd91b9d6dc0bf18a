import { NoteCard } from "~/components/customer/customer-sections";
import { cn } from "~/components/ui/cn";
import { useHydrated } from "~/components/ui/use-hydrated";
import type { ChatMessage } from "~/domain/chat";
import { formatMessageTime } from "~/domain/format";
import type { ThreadNote } from "~/domain/inbox";

import { AttachmentView } from "./attachment-view";
import { MessageText } from "./message-text";

const bubble = (own: boolean) =>
  cn(
    // wrap-anywhere: a long word or address breaks inside the bubble instead of widening it.
    "rounded-2xl px-4 py-2 text-sm whitespace-pre-wrap wrap-anywhere",
    own ? "rounded-br-sm bg-brand-600 text-white" : "rounded-bl-sm bg-slate-100 text-slate-900",
  );

/**
 * The conversation, oldest first; own messages on the right. Text is React text nodes and links
 * (line breaks kept by CSS), never HTML, so `<script>` in a message shows as those characters.
 * A file message shows its attachment and, below it, its caption when one was written.
 */
export function MessageList({
  messages,
  currentUserId,
  hasEarlier,
  onLoadEarlier,
  earlierHref,
  seenOwnId = null,
  notes = [],
}: {
  messages: ChatMessage[];
  currentUserId: string;
  hasEarlier: boolean;
  onLoadEarlier: () => void;
  /** Without JavaScript: the page with the earlier messages (a link instead of the button). */
  earlierHref?: string;
  /** Our newest message the other side has read: "Seen" under it. */
  seenOwnId?: string | null;
  /** Staff's internal notes, placed between the messages by time in a style of their own. */
  notes?: ThreadNote[];
}) {
  // The page's copy is drawn in the server's time zone: once hydrated, each time is drawn again in the reader's.
  const hydrated = useHydrated();
  // Notes older than the first loaded message wait until earlier messages are loaded.
  const from = hasEarlier ? (messages[0]?.createdAt ?? "") : "";
  const notesBefore = (index: number) =>
    notes.filter(
      (n) =>
        n.createdAt >= from &&
        (index === 0 || n.createdAt >= messages[index - 1]!.createdAt) &&
        (index === messages.length || n.createdAt < messages[index]!.createdAt),
    );
  const noteItems = (index: number) =>
    notesBefore(index).map((n) => (
      <li key={`note-${n.id}`} aria-label="Internal note" className="w-full max-w-[90%] self-center">
        <NoteCard note={n} />
      </li>
    ));
  return (
    <ol className="flex flex-col gap-3" aria-label="Messages">
      {hasEarlier ? (
        <li className="self-center">
          {earlierHref ? (
            <a href={earlierHref} className="text-sm font-semibold text-brand-700 hover:underline">
              Show earlier messages
            </a>
          ) : (
            <button type="button" onClick={onLoadEarlier} className="text-sm font-semibold text-brand-700 hover:underline">
              Load earlier messages
            </button>
          )}
        </li>
      ) : null}
      {messages.map((m, index) => {
        const own = m.senderId._id === currentUserId;
        return [
          ...noteItems(index),
          <li
            key={m._id}
            data-testid="chat-message"
            className={cn("flex max-w-[80%] min-w-0 flex-col gap-1", own ? "self-end items-end" : "self-start items-start")}
          >
            <span className="text-xs text-slate-600">
              <span className="font-semibold text-slate-800">{own ? "You" : m.senderId.name}</span>
              {" · "}
              <time key={hydrated ? "local" : "page"} dateTime={m.createdAt} suppressHydrationWarning>
                {formatMessageTime(m.createdAt)}
              </time>
            </span>
            {m.messageType === "file" && m.attachment ? <AttachmentView attachment={m.attachment} own={own} /> : null}
            {m.messageType !== "file" || !m.attachment || m.message !== m.attachment.fileName ? (
              <p data-testid="message-text" className={bubble(own)}>
                <MessageText text={m.message} own={own} />
              </p>
            ) : null}
            {m.service ? <span className="text-xs text-slate-600">About: {m.service.name}</span> : null}
            {own && m._id === seenOwnId ? (
              <span data-testid="seen" className="text-xs font-medium text-slate-600">
                Seen
              </span>
            ) : null}
          </li>,
        ];
      })}
      {noteItems(messages.length)}
    </ol>
  );
}
