import { describe, expect, test } from "vitest";

import type { PostJson } from "~/domain/schemas/calendar";

import { collect, nextEvent } from "../support/chat-helpers";
import { nodesAccount, startTwoNodes } from "../support/chat-nodes-helpers";

/*
 * The content calendar across two production nodes sharing PostgreSQL and Redis (decision 210):
 * a change made through one node reaches staff and the post's customer connected to the other,
 * as `postUpdated`; a draft reaches staff only.
 */

const nodes = startTwoNodes("calendar-nodes");

async function api(url: string, token: string, method: string, pathname: string, body: unknown) {
  const response = await fetch(`${url}${pathname}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(response.status).toBeLessThan(300);
  return ((await response.json()) as { data: { post: PostJson } }).data.post;
}

describe("the calendar on two nodes", () => {
  test("postUpdated crosses nodes to staff and to the post's customer; a draft to staff only", async () => {
    const customer = await nodesAccount(nodes.database.database, "user", "Cal Nodes");
    const staffA = await nodesAccount(nodes.database.database, "team", "Sia Staff");
    const staffB = await nodesAccount(nodes.database.database, "team", "Bo Staff");
    const customerAtB = await nodes.connect(nodes.b.url, customer.token);
    const staffAtB = await nodes.connect(nodes.b.url, staffB.token);
    const staffAtA = await nodes.connect(nodes.a.url, staffA.token);
    const customerSaw = collect(customerAtB, "postUpdated");

    // Staff on A draft a post: staff on B see it (the adapter's subscription may take a moment: retry).
    let draft: PostJson | undefined;
    await expect
      .poll(
        async () => {
          const seen = nextEvent(staffAtB, "postUpdated", (p) => p.customer._id === customer.id, 2500).then(
            () => true,
            () => false,
          );
          draft = await api(nodes.a.url, staffA.token, "POST", "/api/posts", {
            customerId: customer.id,
            channel: "instagram",
            scheduledAt: "2031-04-02T09:00:00Z",
            caption: "Across nodes",
          });
          return seen;
        },
        { timeout: 20_000 },
      )
      .toBe(true);

    // Sent to review on A: the customer on B gets it, and staff on B.
    const toCustomer = nextEvent(customerAtB, "postUpdated", (p) => p._id === draft!._id && p.status === "in_review");
    const toStaffB = nextEvent(staffAtB, "postUpdated", (p) => p._id === draft!._id && p.status === "in_review");
    await api(nodes.a.url, staffA.token, "PATCH", `/api/posts/${draft!._id}`, { status: "in_review" });
    expect(await toCustomer).toMatchObject({ caption: "Across nodes", customer: { _id: customer.id, name: "Cal Nodes" } });
    await toStaffB;

    // The customer approves on B: staff on A see it.
    const approved = nextEvent(staffAtA, "postUpdated", (p) => p._id === draft!._id && p.status === "approved");
    await api(nodes.b.url, customer.token, "POST", `/api/posts/${draft!._id}/review`, { decision: "approve" });
    expect(await approved).toMatchObject({ status: "approved" });

    // The customer never saw a draft.
    expect(customerSaw.length).toBeGreaterThan(0);
    expect(customerSaw.every((p) => p.status !== "draft")).toBe(true);
  });
});
