import { NavLink } from "@remix-run/react";

import { formatMessageTime } from "~/components/chat/message-list";
import { UnreadCount } from "~/components/chat/unread-badge";
import { ClientBeside } from "~/components/dashboard/client-beside";
import { Badge } from "~/components/ui/badge";
import { cn } from "~/components/ui/cn";
import { EmptyState } from "~/components/ui/empty-state";
import { Inbox, Paperclip } from "~/components/ui/icons";
import type { Thread } from "~/domain/inbox";

/** The inbox's threads, latest message first: who, the last message, unread count, status and assignee. */
export function ThreadList({
  threads,
  typingRooms,
  linkSuffix,
  emptyText,
}: {
  threads: Thread[];
  typingRooms: Set<string>;
  linkSuffix: string;
  emptyText: string;
}) {
  if (threads.length === 0) return <EmptyState icon={Inbox} title="No conversations" text={emptyText} />;
  return (
    <ul aria-label="Conversations" className="divide-y divide-slate-200 overflow-hidden rounded-card border border-slate-200 bg-white shadow-card">
      {threads.map((thread) => {
        const last = thread.lastMessage;
        const typing = typingRooms.has(thread.roomId);
        return (
          <li key={thread._id} data-testid="thread-row">
            <NavLink
              to={`/dashboard/inbox/${thread.customer._id}${linkSuffix}`}
              prefetch="intent"
              data-thread-link=""
              className={({ isActive }) => cn("thread-link", isActive && "bg-brand-50")}
            >
              <span className="flex items-center gap-2">
                <span className={cn("min-w-0 flex-1 truncate text-sm text-slate-950", thread.unread > 0 ? "font-bold" : "font-semibold")}>
                  {thread.customer.name}
                  <ClientBeside person={thread.customer.name} client={thread.client} />
                </span>
                <UnreadCount count={thread.unread} label="unread" />
                {last ? (
                  <time dateTime={last.createdAt} className="shrink-0 text-xs text-slate-600">
                    {formatMessageTime(last.createdAt)}
                  </time>
                ) : null}
              </span>
              <span className="block truncate text-xs text-slate-600">{thread.customer.email}</span>
              <span className="mt-1 flex items-center gap-1 truncate text-sm text-slate-700">
                {typing ? (
                  <em data-testid="thread-typing" className="text-brand-700">
                    typing…
                  </em>
                ) : last ? (
                  <>
                    {last.messageType === "file" ? <Paperclip className="size-3.5 shrink-0" aria-label="File" /> : null}
                    <span className="truncate">
                      {last.senderId._id === thread.customer._id ? "" : `${last.senderId.name}: `}
                      {last.message}
                    </span>
                  </>
                ) : (
                  <span className="text-slate-500">No messages yet</span>
                )}
              </span>
              <span className="mt-1.5 flex flex-wrap items-center gap-1.5">
                <Badge tone={thread.status === "open" ? "success" : "neutral"}>{thread.status === "open" ? "Open" : "Closed"}</Badge>
                {thread.kind === "visitor" ? (
                  <Badge tone="info" title="Sent through the contact form: the address is what the visitor typed, not verified">
                    Visitor · contact form
                  </Badge>
                ) : null}
                <Badge tone={thread.assignee ? "brand" : "warning"}>{thread.assignee ? `Assigned to ${thread.assignee.name}` : "Unassigned"}</Badge>
              </span>
            </NavLink>
          </li>
        );
      })}
    </ul>
  );
}
