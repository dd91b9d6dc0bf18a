import { renderToStaticMarkup } from "react-dom/server";
import { StaticRouter } from "react-router-dom/server";
import { describe, expect, test } from "vitest";

import type { Thread } from "~/domain/inbox";

import { ThreadList } from "./thread-list";

/** The inbox's rows as the server draws them: a customer's row names their client when it is not named after them. */

const thread = (name: string, client: string): Thread => ({
  _id: crypto.randomUUID(),
  roomId: "support-11111111-1111-4111-8111-111111111111",
  kind: "customer",
  customer: { _id: "11111111-1111-4111-8111-111111111111", name, email: "nadia@example.test" },
  client: { _id: "11111111-1111-4111-8111-111111111111", name: client },
  lastMessage: null,
  unread: 0,
  status: "open",
  assignee: null,
  updatedAt: "2026-11-28T10:00:00.000Z",
});

const rows = (threads: Thread[]) =>
  renderToStaticMarkup(
    <StaticRouter location="/dashboard/inbox">
      <ThreadList threads={threads} typingRooms={new Set()} linkSuffix="" emptyText="None" />
    </StaticRouter>,
  );

describe("the inbox's thread rows", () => {
  test("a customer of a team shows the client's name beside theirs", () => {
    const html = rows([thread("Nadia Owner", "Quayside Coffee")]);
    expect(html).toContain("Nadia Owner");
    expect(html).toMatch(/data-testid="row-client"[^>]*>.*Quayside Coffee/);
  });

  test("a client of one named after its owner shows nothing more", () => {
    expect(rows([thread("Nadia Owner", "Nadia Owner")])).not.toContain("row-client");
  });
});
