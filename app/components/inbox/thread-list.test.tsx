import { renderToStaticMarkup } from "react-dom/server";
import { StaticRouter } from "react-router-dom/server";
import { describe, expect, test } from "vitest";

import { toInboxRow, type InboxRow, type Thread } from "~/domain/inbox";

import { ThreadList } from "./thread-list";

/** The inbox's rows as the server draws them, from the rows the page's loader sends. */

const CUSTOMER = "11111111-1111-4111-8111-111111111111";

const thread = (name: string, client: string, changes: Partial<Thread> = {}): Thread => ({
  _id: crypto.randomUUID(),
  roomId: `support-${CUSTOMER}`,
  kind: "customer",
  customer: { _id: CUSTOMER, name, email: "nadia@example.test" },
  client: { _id: CUSTOMER, name: client },
  lastMessage: null,
  unread: 0,
  status: "open",
  assignee: null,
  updatedAt: "2026-11-28T10:00:00.000Z",
  ...changes,
});

const rows = (threads: InboxRow[], typingRooms = new Set<string>()) =>
  renderToStaticMarkup(
    <StaticRouter location="/dashboard/inbox">
      <ThreadList threads={threads} typingRooms={typingRooms} linkSuffix="" emptyText="None" />
    </StaticRouter>,
  );

describe("the inbox's thread rows", () => {
  test("a customer of a team shows the client's name beside theirs", () => {
    const html = rows([toInboxRow(thread("Nadia Owner", "Quayside Coffee"))]);
    expect(html).toContain("Nadia Owner");
    expect(html).toMatch(/data-testid="row-client"[^>]*>.*Quayside Coffee/);
  });

  test("a client of one named after its owner shows nothing more", () => {
    expect(rows([toInboxRow(thread("Nadia Owner", "Nadia Owner"))])).not.toContain("row-client");
  });

  test("a row shows its last message (staff's with their name, a file with its icon), the time to the minute, the unread count and the badges", () => {
    const answered = thread("Nadia Owner", "Nadia Owner", {
      lastMessage: {
        _id: crypto.randomUUID(),
        roomId: `support-${CUSTOMER}`,
        senderId: { _id: crypto.randomUUID(), name: "Taylor Brooks", profileImage: null },
        receiverId: CUSTOMER,
        message: "Here is the logo",
        messageType: "file",
        attachment: { _id: crypto.randomUUID(), fileName: "logo.png", mimeType: "image/png", fileSize: 10 },
        createdAt: "2026-11-28T10:41:07.123Z",
        service: null,
      },
      unread: 2,
      assignee: { _id: crypto.randomUUID(), name: "Taylor Brooks" },
      updatedAt: "2026-11-28T10:41:07.123Z",
    });
    const html = rows([toInboxRow(answered)]);
    expect(html).toContain(`href="/dashboard/inbox/${CUSTOMER}"`);
    expect(html).toContain("Taylor Brooks: Here is the logo");
    expect(html).toContain('aria-label="File"');
    expect(html).toContain('<time dateTime="2026-11-28T10:41Z">');
    expect(html).toMatch(/data-testid="unread-count"[^>]*>2<span class="sr-only"> unread<\/span>/);
    expect(html).toContain(">Open</span>");
    expect(html).toContain(">Assigned to Taylor Brooks</span>");
    expect(html).not.toContain("No messages yet");
  });

  test("a closed visitor's thread without messages says so; a typing customer shows typing… instead of the last message", () => {
    const visitor = toInboxRow(thread("Val", "", { kind: "visitor", client: null, status: "closed" }));
    const html = rows([visitor]);
    expect(html).toContain("No messages yet");
    expect(html).toContain(">Closed</span>");
    expect(html).toContain("Visitor · contact form");
    expect(html).toContain(">Unassigned</span>");
    const typing = rows([toInboxRow(thread("Nadia Owner", "Nadia Owner"))], new Set([`support-${CUSTOMER}`]));
    expect(typing).toContain('data-testid="thread-typing"');
    expect(typing).not.toContain("No messages yet");
  });
});
