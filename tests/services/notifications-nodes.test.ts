import { describe, expect, test } from "vitest";

import { nextEvent, sendSupport } from "../support/chat-helpers";
import { nodesAccount, startTwoNodes } from "../support/chat-nodes-helpers";

/*
 * Notifications across two production nodes sharing PostgreSQL and Redis (docs/decisions/289): staff
 * answering on one node reach the bell of the client's member connected to the other, with the count.
 */

const nodes = startTwoNodes("notifications-nodes");

describe("notifications on two nodes", () => {
  test("a reply sent through node A reaches the client's socket on node B as `notification`", async () => {
    const customer = await nodesAccount(nodes.database.database, "user", "Nell Nodes");
    const staff = await nodesAccount(nodes.database.database, "team", "Ned Staff");
    const customerAtB = await nodes.connect(nodes.b.url, customer.token);
    const staffAtA = await nodes.connect(nodes.a.url, staff.token);

    // The adapter's subscription may take a moment: send again until one arrives.
    let unread = 0;
    await expect
      .poll(
        async () => {
          const seen = nextEvent(customerAtB, "notification", ({ notification }) => notification.kind === "message", 2500).then(
            (payload) => ((unread = payload.unread), true),
            () => false,
          );
          const sent = await sendSupport(staffAtA, { message: "Your calendar is ready.", supportRoomId: `support-${customer.id}`, userId: customer.id });
          expect(sent.ok).toBe(true);
          return seen;
        },
        { timeout: 30_000 },
      )
      .toBe(true);
    expect(unread).toBeGreaterThanOrEqual(1);

    const response = await fetch(`${nodes.b.url}/api/notifications?unread=1`, { headers: { Authorization: `Bearer ${customer.token}` } });
    const body = (await response.json()) as { data: { notifications: { title: string }[]; unread: number } };
    expect(body.data.unread).toBeGreaterThanOrEqual(unread);
    expect(body.data.notifications[0]!.title).toBe("New message from Ned Staff");
  }, 60_000);
});
