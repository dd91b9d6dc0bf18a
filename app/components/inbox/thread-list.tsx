import { NavLink } from "@remix-run/react";

import { UnreadCount } from "~/components/chat/unread-badge";
import { ClientBeside } from "~/components/dashboard/client-beside";
import { Badge } from "~/components/ui/badge";
import { cn } from "~/components/ui/cn";
import { EmptyState } from "~/components/ui/empty-state";
import { Inbox, Paperclip } from "~/components/ui/icons";
import { formatMessageTime } from "~/domain/format";
import { inboxRowRoom, type InboxRow } from "~/domain/inbox";

/** When a row's last message was sent, to the minute it shows ("2026-11-29T10:41Z" for Nov 29, 10:41 AM). */
function SentAt({ at }: { at: number }) {
  const iso = new Date(at).toISOString();
  return <time dateTime={`${iso.slice(0, 16)}Z`}>{formatMessageTime(at)}</time>;
}

/**
 * The inbox's threads, latest message first: who, the last message, unread count, status and
 * assignee. A page lists 25 of these, so a row's parts carry no classes of their own: `.thread-link`
 * (styles/tailwind.css) styles them by tag, and the name turns bold from the unread count beside it
 * (decision 320).
 */
export function ThreadList({
  threads,
  typingRooms,
  linkSuffix,
  emptyText,
}: {
  threads: InboxRow[];
  typingRooms: Set<string>;
  linkSuffix: string;
  emptyText: string;
}) {
  if (threads.length === 0) return <EmptyState icon={Inbox} title="No conversations" text={emptyText} />;
  return (
    <ul
      aria-label="Conversations"
      data-thread-list=""
      className="divide-y divide-slate-200 overflow-hidden rounded-card border border-slate-200 bg-white shadow-card"
    >
      {threads.map((row) => (
        <li key={row.id} data-testid="thread-row">
          <NavLink to={`/dashboard/inbox/${row.id}${linkSuffix}`} prefetch="intent" className={({ isActive }) => cn("thread-link", isActive && "bg-brand-50")}>
            <b>
              {row.name}
              <ClientBeside person={row.name} client={row.client ? { name: row.client } : null} />
            </b>
            <UnreadCount count={row.unread ?? 0} label="unread" />
            {row.at !== undefined ? <SentAt at={row.at} /> : null}
            <small>{row.email}</small>
            <p>
              {typingRooms.has(inboxRowRoom(row)) ? (
                <em data-testid="thread-typing">typing…</em>
              ) : row.at !== undefined ? (
                <>
                  {row.file ? <Paperclip aria-label="File" /> : null}
                  {row.by ? `${row.by}: ${row.text}` : row.text}
                </>
              ) : (
                <span className="text-slate-500">No messages yet</span>
              )}
            </p>
            <div>
              <Badge tone={row.closed ? "neutral" : "success"}>{row.closed ? "Closed" : "Open"}</Badge>
              {row.visitor ? (
                <Badge tone="info" title="Sent through the contact form: the address is what the visitor typed, not verified">
                  Visitor · contact form
                </Badge>
              ) : null}
              <Badge tone={row.assignee ? "brand" : "warning"}>{row.assignee ? `Assigned to ${row.assignee}` : "Unassigned"}</Badge>
            </div>
          </NavLink>
        </li>
      ))}
    </ul>
  );
}
