import { describe, expect, test } from "vitest";

import { nodesAccount, startTwoNodes } from "../support/chat-nodes-helpers";

/*
 * A signed-in page answered again from memory on one node renders afresh once data changed on the
 * other: two production nodes on one PostgreSQL and a private Redis, which carries the word that
 * data changed (app/utils/data-generation.server.ts). The word takes one Redis hop, so node B is asked
 * until it renders again, for at most 2 s: well under PAGE_CACHE_SECONDS (5 s), after which a page
 * would render again even if the word never came.
 */

const nodes = startTwoNodes("page-cache-nodes");

type Answer = { status: number; hit: boolean; body: string; location: string | null };

describe("the page cache across two nodes", () => {
  test("a page kept on node B renders again once node A renames the account, and a token revoked on A signs out on B", async () => {
    const customer = await nodesAccount(nodes.database.database, "user", "Casey Cached");
    const headers = { Authorization: `Bearer ${customer.token}`, "Accept-Encoding": "identity" };
    const onB = async (): Promise<Answer> => {
      const response = await fetch(`${nodes.b.url}/dashboard/account`, { headers, redirect: "manual" });
      return {
        status: response.status,
        hit: response.headers.get("x-page-cache") === "hit",
        body: await response.text(),
        location: response.headers.get("location"),
      };
    };
    const askUntil = async (done: (answer: Answer) => boolean) => {
      let answer = await onB();
      for (let tries = 0; tries < 100 && !done(answer); tries++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        answer = await onB();
      }
      return answer;
    };

    const kept = await askUntil((answer) => answer.hit);
    expect(kept.hit, nodes.b.output()).toBe(true);
    expect(kept.body).toContain("Casey Cached");

    const renamed = await fetch(`${nodes.a.url}/api/account`, {
      method: "PATCH",
      headers: { Authorization: `Bearer ${customer.token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ name: "Casey Renamed" }),
    });
    expect(renamed.status, nodes.a.output()).toBe(200);
    const fresh = await askUntil((answer) => !answer.hit);
    expect(fresh.hit).toBe(false);
    expect(fresh.body).toContain("Casey Renamed");
    expect(fresh.body).not.toContain("Casey Cached");

    expect((await askUntil((answer) => answer.hit)).hit).toBe(true);
    const out = await fetch(`${nodes.a.url}/api/auth/logout`, { method: "POST", headers: { Authorization: `Bearer ${customer.token}` } });
    expect(out.status).toBe(200);
    const signedOut = await askUntil((answer) => answer.status !== 200);
    expect(signedOut.status).toBe(302);
    expect(signedOut.location).toMatch(/^\/login/);
  });
});
