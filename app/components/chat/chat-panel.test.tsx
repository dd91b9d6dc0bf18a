import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, test } from "vitest";

import type { ChatMessage } from "~/domain/chat";

import { ChatPanel } from "./chat-panel";

/** The panel as the server draws it (what a browser without JavaScript gets): the thread and a working form. */

const customer = { id: "11111111-1111-4111-8111-111111111111", name: "Charlie Chat", role: "user" as const };
const message: ChatMessage = {
  _id: "22222222-2222-4222-8222-222222222222",
  roomId: `support-${customer.id}`,
  senderId: { _id: "33333333-3333-4333-8333-333333333333", name: "Sam Staff", profileImage: null },
  receiverId: customer.id,
  message: "Your calendar is ready.",
  messageType: "text",
  createdAt: "2026-11-28T10:00:00.000Z",
  service: null,
};

const render = (url: string, error: string | null = null) =>
  renderToStaticMarkup(
    <>
      <ChatPanel
        customerId={customer.id}
        currentUser={customer}
        page={{
          thread: { messages: [message], hasEarlier: true, before: null },
          location: { pathname: new URL(url, "http://x").pathname, search: new URL(url, "http://x").search },
          error,
          draft: error ? "kept text" : undefined,
        }}
      />
    </>,
  );

describe("the chat panel drawn by the server", () => {
  test("shows the thread, a link to earlier messages and a multipart form with a file field that posts to the page", () => {
    const html = render("/dashboard/messages?before=x&insert=y");
    expect(html).toContain("Your calendar is ready.");
    expect(html).not.toContain("needs JavaScript");
    expect(html).toContain(`href="/dashboard/messages?before=${message._id}&amp;insert=y"`);
    expect(html).toMatch(/<form method="post" enctype="multipart\/form-data" action="\/dashboard\/messages" aria-label="Write a message">/i);
    expect(html).toMatch(/<input type="file" name="file" accept="[^"]+"/);
    const textarea = /<textarea[^>]*name="message"[^>]*>/.exec(html)?.[0] ?? "";
    expect(textarea).not.toMatch(/\sdisabled(="[^"]*")?[\s>]/);
    const send = /<button[^>]*aria-label="Send message"[^>]*>/.exec(html)?.[0] ?? "";
    expect(send).toContain('type="submit"');
    expect(send).not.toMatch(/\sdisabled(="[^"]*")?[\s>]/);
  });

  test("a refused message: its words above the box, its text kept in it", () => {
    const html = render("/dashboard/messages", "Message cannot be empty.");
    expect(html).toContain('role="alert"');
    expect(html).toContain("Message cannot be empty.");
    expect(html).toMatch(/<textarea[^>]*name="message"[^>]*>kept text<\/textarea>/);
  });
});
