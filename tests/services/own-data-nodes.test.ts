import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";

import { schema } from "~/utils/db.server";
import { hashPassword } from "~/utils/password.server";
import { hashToken, randomToken } from "~/utils/tokens.server";

import { connectClient } from "../support/chat-helpers";
import { nodesAccount, startTwoNodes } from "../support/chat-nodes-helpers";

/*
 * Deleting an account on one node ends its sockets on both (decision 240): two production nodes
 * sharing PostgreSQL and a private Redis; the customer has sockets on each node, opened with two
 * different tokens; DELETE /api/account on node A disconnects all of them, and neither token works
 * on node B afterwards.
 */

const nodes = startTwoNodes("own-data-nodes");
const PASSWORD = "correct-horse-battery";

describe("deleting an account with two nodes", () => {
  test("ends its sockets on both nodes, whichever token opened them, and its tokens stop working everywhere", async () => {
    const customer = await nodesAccount(nodes.database.database, "user", "Dee Delete");
    await nodes.database.database.db
      .update(schema.users)
      .set({ passwordHash: await hashPassword(PASSWORD) })
      .where(eq(schema.users.id, customer.id));
    const secondToken = randomToken();
    await nodes.database.database.db
      .insert(schema.sessions)
      .values({ tokenHash: hashToken(secondToken), kind: "bearer", userId: customer.id, expiresAt: new Date(Date.now() + 3600_000) });

    const opened = await Promise.all([
      nodes.connect(nodes.a.url, customer.token),
      nodes.connect(nodes.b.url, customer.token),
      nodes.connect(nodes.a.url, secondToken),
      nodes.connect(nodes.b.url, secondToken),
    ]);
    const ended = opened.map((socket) => new Promise<string>((resolve) => socket.once("disconnect", resolve)));

    const response = await fetch(`${nodes.a.url}/api/account`, {
      method: "DELETE",
      headers: { Authorization: `Bearer ${customer.token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ password: PASSWORD }),
    });
    expect(response.status, nodes.a.output()).toBe(200);
    expect(await response.json()).toEqual({ status: "success" });
    const reasons = await Promise.race([
      Promise.all(ended),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error("sockets still open 10 s after the deletion")), 10_000)),
    ]);
    expect(reasons).toEqual(Array(4).fill("io server disconnect"));

    for (const token of [customer.token, secondToken]) {
      const account = await fetch(`${nodes.b.url}/api/account`, { headers: { Authorization: `Bearer ${token}` } });
      expect(account.status).toBe(401);
    }
    await expect(connectClient(nodes.b.url, { token: secondToken })).rejects.toThrow(/unauthorized/);
    const [row] = await nodes.database.database.db.select().from(schema.users).where(eq(schema.users.id, customer.id));
    expect(row).toMatchObject({ name: "Deleted customer", passwordHash: null });
  }, 60_000);
});
