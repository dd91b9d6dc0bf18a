import { describe, expect, test } from "vitest";

import { supportRoomId } from "~/domain/chat";
import { latestThread, type Thread } from "~/domain/inbox";

import { collect, nextEvent, sendSupport } from "../support/chat-helpers";
import { nodesAccount, startTwoNodes } from "../support/chat-nodes-helpers";

/*
 * The support inbox across two production nodes sharing PostgreSQL and Redis (decision 097): typing,
 * read receipts and threadUpdated reach the other node; assignments from both nodes at once end
 * on one assignee that every staff socket sees.
 */

const nodes = startTwoNodes("inbox-nodes");

async function patchThread(url: string, token: string, customerId: string, body: unknown) {
  const response = await fetch(`${url}/api/chat/threads/${customerId}`, {
    method: "PATCH",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as { data: Thread } };
}

describe("the inbox on two nodes", () => {
  test("typing, a message's threadUpdated and read receipts cross nodes in both directions", async () => {
    const customer = await nodesAccount(nodes.database.database, "user", "Nia Nodes");
    const staff = await nodesAccount(nodes.database.database, "team", "Stan Staff");
    const atA = await nodes.connect(nodes.a.url, customer.token);
    const atB = await nodes.connect(nodes.b.url, staff.token);
    const room = supportRoomId(customer.id);

    // Typing from node A reaches staff on node B (the room subscription may take a moment across Redis).
    await expect
      .poll(
        async () => {
          const typing = nextEvent(atB, "typing", (t) => t.roomId === room, 2500).then(
            () => true,
            () => false,
          );
          atA.emit("typing", { roomId: room });
          return typing;
        },
        { timeout: 15_000 },
      )
      .toBe(true);

    const updated = nextEvent(atB, "threadUpdated", (t) => t.customer._id === customer.id && t.lastMessage?.message === "question from A");
    const sent = await sendSupport(atA, { message: "question from A" });
    if (!sent.ok) throw new Error(sent.error);
    expect(await updated).toMatchObject({ unread: 1, status: "open", customer: { name: "Nia Nodes" } });

    // Staff on B read it: the customer on A sees the receipt, and the team count drops to 0.
    atB.emit("joinRoom", { roomId: room });
    await nextEvent(atB, "supportRoomJoined");
    const receipt = nextEvent(atA, "read", (r) => r.userId === staff.id);
    const cleared = nextEvent(atB, "threadUpdated", (t) => t.customer._id === customer.id && t.unread === 0);
    expect(await atB.timeout(5000).emitWithAck("read", { roomId: room, messageId: sent.message._id })).toEqual({ ok: true });
    expect(await receipt).toEqual({ roomId: room, userId: staff.id, messageId: sent.message._id });
    await cleared;

    // Staff typing on B reaches the customer on A.
    const staffTyping = nextEvent(atA, "typing", (t) => t.userId === staff.id);
    atB.emit("typing", { roomId: room });
    expect(await staffTyping).toMatchObject({ roomId: room, userId: staff.id });
  });

  test("two staff on two nodes assign at once: the last write wins and both see it", async () => {
    const customer = await nodesAccount(nodes.database.database, "user", "Cara Contest");
    const ann = await nodesAccount(nodes.database.database, "team", "Ann A");
    const bob = await nodesAccount(nodes.database.database, "team", "Bob B");
    await sendSupport(await nodes.connect(nodes.a.url, customer.token), { message: "who takes this?" });
    const annSocket = await nodes.connect(nodes.a.url, ann.token);
    const bobSocket = await nodes.connect(nodes.b.url, bob.token);
    const seenByAnn = collect(annSocket, "threadUpdated");
    const seenByBob = collect(bobSocket, "threadUpdated");

    const results = await Promise.all([
      patchThread(nodes.a.url, ann.token, customer.id, { assigneeId: ann.id }),
      patchThread(nodes.b.url, bob.token, customer.id, { assigneeId: bob.id }),
    ]);
    expect(results.map((r) => r.status)).toEqual([200, 200]);
    const list = await fetch(`${nodes.a.url}/api/chat/threads?search=${encodeURIComponent("Cara Contest")}`, {
      headers: { Authorization: `Bearer ${ann.token}` },
    });
    const winner = ((await list.json()) as { data: { threads: Thread[] } }).data.threads[0]!.assignee!._id;
    expect([ann.id, bob.id]).toContain(winner);
    const lastSeen = (seen: Thread[]) => seen.filter((t) => t.customer._id === customer.id);
    await expect.poll(() => lastSeen(seenByAnn).length).toBe(2);
    await expect.poll(() => lastSeen(seenByBob).length).toBe(2);
    // The two updates may reach a socket in either order (each node sends its own after its write);
    // every staff screen keeps the newer copy of a thread (latestThread), and that is the stored assignee.
    const shown = (seen: Thread[]) => lastSeen(seen).reduce<Thread | null>((kept, next) => latestThread(kept, next), null);
    expect(shown(seenByAnn)!.assignee!._id).toBe(winner);
    expect(shown(seenByBob)!.assignee!._id).toBe(winner);
  });
});
