import { and, eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";

import { API_KEY_CALLS_PER_MINUTE } from "~/domain/api-keys";
import type { PostJson } from "~/domain/schemas/calendar";
import { inviteMember, removeMember } from "~/models/clients.server";
import { issuePasswordToken, resetPasswordWithToken } from "~/models/password-tokens.server";
import { createPost, reviewPost, updatePost } from "~/models/posts.server";
import * as account from "~/routes/api+/account+/_layout";
import * as apiKeys from "~/routes/api+/account+/api-keys";
import * as apiKeyById from "~/routes/api+/account+/api-keys.$id";
import * as password from "~/routes/api+/account+/password";
import * as openapi from "~/routes/api+/openapi[.]json";
import * as orders from "~/routes/api+/orders";
import * as postsList from "~/routes/api+/posts+/_layout";
import * as published from "~/routes/api+/posts+/$id.published";
import * as keysPage from "~/routes/dashboard+/api-keys";
import { settleBackgroundTasks } from "~/utils/background.server";
import { db, schema } from "~/utils/db.server";
import { limits } from "~/utils/rate-limit.server";
import { hashToken } from "~/utils/tokens.server";

import { chatServerForFile, connectClient } from "../support/chat-helpers";
import { call, createAccount, readJson, type Account } from "../support/dashboard-helpers";
import { uniqueEmail } from "../support/requests";

/** API keys (decision 284): made, listed, revoked, held to their scopes and their person; and the publishing hand-off (decision 285). */

const { server } = chatServerForFile();

const json = (body: unknown) => ({ body: JSON.stringify(body), headers: { "Content-Type": "application/json" } });
type KeyAnswer = {
  status: string;
  data: { key: string; apiKey: { _id: string; name: string; scopes: string[]; prefix: string; lastUsedAt: string | null; createdAt: string } };
};

async function makeKey(owner: Account, scopes: string[], name = "Zapier") {
  const response = await call(apiKeys.action, "/api/account/api-keys", { auth: owner, method: "POST", ...json({ name, scopes }) });
  expect(response.status).toBe(201);
  return (await readJson<KeyAnswer>(response)).data;
}
const withKey = (key: string) => ({ bearer: key });
const me = (key: string) => call(account.loader, "/api/account", { auth: withKey(key) });

describe("API keys: made, listed and revoked", () => {
  test("a key is shown once, stored only as its hash, listed by its prefix, and stops working when revoked", async () => {
    const customer = await createAccount("user");
    const { key, apiKey } = await makeKey(customer, ["read", "read"], "  My script  ");
    expect(key).toMatch(/^blk_[A-Za-z0-9_-]{40,}$/);
    expect(apiKey).toEqual({
      _id: expect.any(String),
      name: "My script",
      scopes: ["read"],
      prefix: key.slice(0, 8),
      lastUsedAt: null,
      createdAt: expect.any(String),
    });

    const [row] = await db.select().from(schema.apiKeys).where(eq(schema.apiKeys.id, apiKey._id));
    expect(row!.keyHash).toBe(hashToken(key));
    expect(Object.values(row!).map(String)).not.toContain(key);

    const listed = await readJson<{ data: { apiKeys: unknown[] } }>(await call(apiKeys.loader, "/api/account/api-keys", { auth: customer }));
    expect(listed.data.apiKeys).toEqual([apiKey]);
    expect(JSON.stringify(listed)).not.toContain(key);

    const signedIn = await me(key);
    expect(signedIn.status).toBe(200);
    expect((await readJson<{ data: { user: { _id: string } } }>(signedIn)).data.user._id).toBe(customer.id);

    // Another person's key is not theirs to revoke.
    const stranger = await createAccount("user");
    const foreign = await call(apiKeyById.action, `/api/account/api-keys/${apiKey._id}`, { auth: stranger, method: "DELETE", params: { id: apiKey._id } });
    expect(foreign.status).toBe(404);
    expect((await me(key)).status).toBe(200);

    const revoked = await call(apiKeyById.action, `/api/account/api-keys/${apiKey._id}`, { auth: customer, method: "DELETE", params: { id: apiKey._id } });
    expect(revoked.status).toBe(200);
    expect((await me(key)).status).toBe(401);
    expect((await me(`blk_${"x".repeat(43)}`)).status).toBe(401);
  });

  test("a scope outside the person's rights is refused with 403, an unknown one with 400", async () => {
    const customer = await createAccount("user");
    for (const scope of ["orders:read", "posts:write"]) {
      const refused = await call(apiKeys.action, "/api/account/api-keys", {
        auth: customer,
        method: "POST",
        ...json({ name: "Too wide", scopes: ["read", scope] }),
      });
      expect(refused.status).toBe(403);
      expect((await readJson<{ message: string }>(refused)).message).toBe(`Your account cannot grant the "${scope}" scope.`);
    }
    const unknown = await call(apiKeys.action, "/api/account/api-keys", { auth: customer, method: "POST", ...json({ name: "Admin", scopes: ["admin"] }) });
    expect(unknown.status).toBe(400);
    const none = await call(apiKeys.action, "/api/account/api-keys", { auth: customer, method: "POST", ...json({ name: "Nothing", scopes: [] }) });
    expect(none.status).toBe(400);
    expect((await readJson<{ message: string }>(none)).message).toBe("Choose at least one scope.");
    const nul = await call(apiKeys.action, "/api/account/api-keys", { auth: customer, method: "POST", ...json({ name: "a\u0000b", scopes: ["read"] }) });
    expect(nul.status).toBe(400);
    expect(await db.select().from(schema.apiKeys).where(eq(schema.apiKeys.userId, customer.id))).toEqual([]);

    const staff = await createAccount("team");
    expect((await makeKey(staff, ["read", "orders:read", "posts:write", "messages:write"])).apiKey.scopes).toEqual([
      "read",
      "orders:read",
      "posts:write",
      "messages:write",
    ]);
  });

  test("staff making and revoking a key are audit entries; a customer's are not", async () => {
    const staff = await createAccount("team", { name: "Audited Staff" });
    const { apiKey } = await makeKey(staff, ["read"], "Reporting");
    await call(apiKeyById.action, `/api/account/api-keys/${apiKey._id}`, { auth: staff, method: "DELETE", params: { id: apiKey._id } });
    const entries = await db.select().from(schema.auditEntries).where(eq(schema.auditEntries.actorId, staff.id));
    expect(entries.map((entry) => [entry.action, entry.detail])).toEqual(
      expect.arrayContaining([
        ["api_key.create", "Reporting (read)"],
        ["api_key.revoke", `Reporting (${apiKey.prefix}…)`],
      ]),
    );
    const customer = await createAccount("user");
    const own = await makeKey(customer, ["read"]);
    await call(apiKeyById.action, `/api/account/api-keys/${own.apiKey._id}`, { auth: customer, method: "DELETE", params: { id: own.apiKey._id } });
    expect(await db.select().from(schema.auditEntries).where(eq(schema.auditEntries.actorId, customer.id))).toEqual([]);
  });
});

describe("what a key may do", () => {
  test("a read key reads, but cannot write, manage keys, or change the password", async () => {
    const customer = await createAccount("user");
    const { key } = await makeKey(customer, ["read"]);
    expect((await me(key)).status).toBe(200);

    const rename = await call(account.action, "/api/account", { auth: withKey(key), method: "PATCH", ...json({ name: "Renamed by a key" }) });
    expect(rename.status).toBe(403);
    expect((await readJson<{ message: string; code: string }>(rename)).message).toBe("An API key cannot make this call: sign in instead.");

    const listKeys = await call(apiKeys.loader, "/api/account/api-keys", { auth: withKey(key) });
    expect(listKeys.status).toBe(403);
    const makeAnother = await call(apiKeys.action, "/api/account/api-keys", {
      auth: withKey(key),
      method: "POST",
      ...json({ name: "Child", scopes: ["read"] }),
    });
    expect(makeAnother.status).toBe(403);
    const changePassword = await call(password.action, "/api/account/password", {
      auth: withKey(key),
      method: "POST",
      ...json({ currentPassword: "whatever-it-is", newPassword: "a-new-password-1" }),
    });
    expect(changePassword.status).toBe(403);
    const [user] = await db.select({ name: schema.users.name }).from(schema.users).where(eq(schema.users.id, customer.id));
    expect(user!.name).toBe(customer.name);
  });

  test("a key reaches only what its scopes name, and never more than its person", async () => {
    const staff = await createAccount("team");
    const readOnly = await makeKey(staff, ["read"]);
    const ordersKey = await makeKey(staff, ["orders:read"]);
    const lacking = await call(orders.loader, "/api/orders", { auth: withKey(readOnly.key) });
    expect(lacking.status).toBe(403);
    expect((await readJson<{ message: string }>(lacking)).message).toBe('This API key lacks the "orders:read" scope this call needs.');
    expect((await call(orders.loader, "/api/orders", { auth: withKey(ordersKey.key) })).status).toBe(200);
    // orders:read is not read: the account itself needs `read`.
    expect((await me(ordersKey.key)).status).toBe(403);

    const customer = await createAccount("user");
    const customerKey = await makeKey(customer, ["read"]);
    expect((await call(orders.loader, "/api/orders", { auth: withKey(customerKey.key) })).status).toBe(403);
  });

  test(`${API_KEY_CALLS_PER_MINUTE} calls a minute per key, then 429 RATE_LIMITED; another key is not affected`, async () => {
    const customer = await createAccount("user");
    const busy = await makeKey(customer, ["read"]);
    const other = await makeKey(customer, ["read"]);
    expect((await me(busy.key)).status).toBe(200);
    // The rest of the minute's calls, spent at once on the limiter rather than by 599 requests.
    await limits.apiKey.consume(busy.apiKey._id, API_KEY_CALLS_PER_MINUTE - 1);
    const refused = await me(busy.key);
    expect(refused.status).toBe(429);
    expect((await readJson<{ code: string }>(refused)).code).toBe("RATE_LIMITED");
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect((await me(other.key)).status).toBe(200);
  });

  test("a key ends with its person: disabled, deleted, or removed from their client", async () => {
    const disabled = await createAccount("user");
    const disabledKey = await makeKey(disabled, ["read"]);
    expect((await me(disabledKey.key)).status).toBe(200);
    await db.update(schema.users).set({ disabledAt: new Date() }).where(eq(schema.users.id, disabled.id));
    expect((await me(disabledKey.key)).status).toBe(401);

    const owner = await createAccount("user", { name: "Client Owner" });
    const email = uniqueEmail("member", "api-keys.test");
    await inviteMember({ ...owner.user, role: "user", clientId: owner.id, clientRole: "owner" }, { email, name: "Member With Key", role: "member" });
    const [memberUser] = await db.select().from(schema.users).where(eq(schema.users.email, email));
    const member = await createAccountFor(memberUser!.id);
    const memberKey = await makeKey(member, ["read"]);
    expect((await me(memberKey.key)).status).toBe(200);
    await removeMember({ id: owner.id, role: "user", clientId: owner.id, clientRole: "owner" }, memberUser!.id);
    expect((await me(memberKey.key)).status).toBe(401);
  });

  test("a password reset through a link ends the keys made in the last day; older ones stay", async () => {
    const customer = await createAccount("user", { name: "Reset Person" });
    const older = await makeKey(customer, ["read"], "Made last week");
    await db
      .update(schema.apiKeys)
      .set({ createdAt: new Date(Date.now() - 7 * 24 * 3600_000) })
      .where(eq(schema.apiKeys.id, older.apiKey._id));
    const recent = await makeKey(customer, ["read"], "Made an hour ago");
    const reset = await resetPasswordWithToken(await issuePasswordToken(customer.id, "reset"), "a-fresh-password-42");
    expect(reset.ok).toBe(true);
    expect((await me(recent.key)).status).toBe(401);
    expect((await me(older.key)).status).toBe(200);
  });

  test("lastUsedAt is recorded after the answer, at most once a minute", async () => {
    const customer = await createAccount("user");
    const { key, apiKey } = await makeKey(customer, ["read"]);
    const lastUsed = async () => (await db.select({ at: schema.apiKeys.lastUsedAt }).from(schema.apiKeys).where(eq(schema.apiKeys.id, apiKey._id)))[0]!.at;
    // A key made now counts as just seen: its first minute writes nothing.
    await db
      .update(schema.apiKeys)
      .set({ createdAt: new Date(Date.now() - 5 * 60_000) })
      .where(eq(schema.apiKeys.id, apiKey._id));
    expect(await lastUsed()).toBeNull();
    await me(key);
    await settleBackgroundTasks();
    const first = await lastUsed();
    expect(first).toBeInstanceOf(Date);
    await me(key);
    await settleBackgroundTasks();
    expect((await lastUsed())!.getTime()).toBe(first!.getTime());
  });

  test("a key opens no socket and no page: it is for the JSON API only", async () => {
    const customer = await createAccount("user");
    const { key } = await makeKey(customer, ["read", "messages:write"]);
    await expect(connectClient(server.url, { token: key })).rejects.toThrow();
    const page = await call(keysPage.loader, "/dashboard/api-keys", { auth: withKey(key) });
    expect(page.status).toBe(302);
    expect(page.headers.get("Location")).toMatch(/^\/login/);
  });

  test("the OpenAPI document names the scope each operation needs", async () => {
    const document = await readJson<{ paths: Record<string, Record<string, { security: Record<string, string[]>[]; "x-api-key-scope": string | null }>> }>(
      await openapi.loader({
        request: new Request("http://localhost/api/openapi.json"),
        params: {},
        context: { requestId: "t", cspNonce: "", clientIp: "127.0.0.1" },
      }),
    );
    const op = (path: string, method: string) => document.paths[path]![method]!;
    expect(op("/api/account", "get")["x-api-key-scope"]).toBe("read");
    expect(op("/api/account", "get").security).toContainEqual({ apiKeyAuth: ["read"] });
    expect(op("/api/orders", "get")["x-api-key-scope"]).toBe("orders:read");
    expect(op("/api/posts/{id}/published", "post").security).toContainEqual({ apiKeyAuth: ["posts:write"] });
    expect(op("/api/account", "patch")["x-api-key-scope"]).toBeNull();
    expect(op("/api/account/api-keys", "get").security).not.toContainEqual(expect.objectContaining({ apiKeyAuth: expect.anything() }));
    expect(op("/api/account/passkeys", "post")["x-api-key-scope"]).toBeNull();
  });

  async function createAccountFor(userId: string): Promise<Account> {
    const { bearerFor } = await import("../support/factories");
    const [user] = await db.select().from(schema.users).where(eq(schema.users.id, userId));
    const bearer = await bearerFor(userId);
    return { user: user!, id: userId, name: user!.name, email: user!.email, role: "user", bearer, token: bearer, cookie: "" };
  }
});

describe("POST /api/posts/:id/published", () => {
  const when = "2030-06-10T10:00:00Z";
  async function approvedPost(staff: Account, customer: Account, status: "approved" | "in_review" | "draft" = "approved") {
    const post = await createPost(staff.user, { customerId: customer.id, channel: "instagram", scheduledAt: when, caption: "Ready to go" });
    if (status !== "draft") await updatePost(staff.user, post.id, { status: "in_review" });
    if (status === "approved") await reviewPost(customer.user, post.id, { decision: "approve" });
    return post.id;
  }
  const publish = (auth: Account | { bearer: string }, id: string, body: unknown) =>
    call(published.action, `/api/posts/${id}/published`, { auth, method: "POST", params: { id }, ...json(body) });

  test("staff mark an approved post published; both sides see the permalink; a retry with the same link is fine", async () => {
    const staff = await createAccount("team");
    const customer = await createAccount("user");
    const id = await approvedPost(staff, customer);
    const permalink = "https://www.instagram.com/p/C0ffee123/";
    const response = await publish(staff, id, { permalink, publishedAt: "2030-06-10T10:01:00Z" });
    // publishedAt may not be ahead of now: 2030 is refused.
    expect(response.status).toBe(400);
    const ok = await publish(staff, id, { permalink, publishedAt: "2026-01-10T10:01:00Z" });
    expect(ok.status).toBe(200);
    const post = (await readJson<{ status: string; data: { post: PostJson } }>(ok)).data.post;
    expect(post).toMatchObject({ _id: id, status: "published", permalink, publishedAt: "2026-01-10T10:01:00.000Z" });

    const seen = await readJson<{ data: { posts: PostJson[] } }>(await call(postsList.loader, "/api/posts", { auth: customer }));
    expect(seen.data.posts.find((item) => item._id === id)).toMatchObject({ status: "published", permalink });

    expect((await publish(staff, id, { permalink })).status).toBe(200);
    const other = await publish(staff, id, { permalink: "https://www.instagram.com/p/Other/" });
    expect(other.status).toBe(409);
    const audit = await db
      .select()
      .from(schema.auditEntries)
      .where(and(eq(schema.auditEntries.targetId, id), eq(schema.auditEntries.action, "post.status")));
    expect(audit.map((entry) => entry.detail)).toContain(`Approved → Published (${permalink})`);
  });

  test("only an approved post; an https permalink of at most 2,000 characters", async () => {
    const staff = await createAccount("team");
    const customer = await createAccount("user");
    const inReview = await approvedPost(staff, customer, "in_review");
    const notYet = await publish(staff, inReview, { permalink: "https://example.com/p/1" });
    expect(notYet.status).toBe(409);
    expect((await readJson<{ message: string }>(notYet)).message).toBe("Only an approved post can be marked published: this one is not approved yet.");
    const draft = await approvedPost(staff, customer, "draft");
    expect((await publish(staff, draft, { permalink: "https://example.com/p/1" })).status).toBe(409);

    const id = await approvedPost(staff, customer);
    for (const permalink of [
      "http://example.com/p/1",
      "javascript:alert(1)",
      "example.com/p/1",
      `https://example.com/${"a".repeat(2000)}`,
      "https://user:pw@example.com/",
      "",
    ]) {
      const refused = await publish(staff, id, { permalink });
      expect(refused.status, permalink.slice(0, 40)).toBe(400);
    }
    expect((await publish(staff, id, {})).status).toBe(400);
    expect((await publish(staff, "00000000-0000-4000-8000-000000000000", { permalink: "https://example.com/p/1" })).status).toBe(404);
    const [row] = await db.select({ status: schema.posts.status, permalink: schema.posts.permalink }).from(schema.posts).where(eq(schema.posts.id, id));
    expect(row).toEqual({ status: "approved", permalink: null });
  });

  test("a customer is refused; a staff key needs posts:write", async () => {
    const staff = await createAccount("team");
    const customer = await createAccount("user");
    const id = await approvedPost(staff, customer);
    expect((await publish(customer, id, { permalink: "https://example.com/p/1" })).status).toBe(403);
    const readKey = await makeKey(staff, ["read"]);
    expect((await publish(withKey(readKey.key), id, { permalink: "https://example.com/p/1" })).status).toBe(403);
    const writeKey = await makeKey(staff, ["posts:write"]);
    const done = await publish(withKey(writeKey.key), id, { permalink: "https://example.com/p/1" });
    expect(done.status).toBe(200);
    expect((await readJson<{ data: { post: PostJson } }>(done)).data.post.status).toBe("published");
  });
});

describe("the API keys page", () => {
  const form = (fields: [string, string][]) => {
    const body = new URLSearchParams(fields);
    return { body: body.toString(), headers: { "Content-Type": "application/x-www-form-urlencoded" } };
  };

  test("makes a key shown once, lists it, and revokes it, with plain forms", async () => {
    const customer = await createAccount("user");
    const page = await call(keysPage.loader, "/dashboard/api-keys", { auth: customer });
    expect(page.status).toBe(200);
    // A customer is offered only the scopes they may hold.
    expect((await readJson<{ scopes: string[] }>(page)).scopes).toEqual(["read", "messages:write"]);

    const made = await call(keysPage.action, "/dashboard/api-keys", {
      auth: customer,
      method: "POST",
      ...form([
        ["intent", "create"],
        ["name", "Page key"],
        ["scopes", "read"],
      ]),
    });
    expect(made.status).toBe(200);
    const { created } = await readJson<{ created: { key: string; apiKey: { _id: string } } }>(made);
    expect((await me(created.key)).status).toBe(200);

    const tooWide = await call(keysPage.action, "/dashboard/api-keys", {
      auth: customer,
      method: "POST",
      ...form([
        ["intent", "create"],
        ["name", "Wide"],
        ["scopes", "read"],
        ["scopes", "orders:read"],
      ]),
    });
    expect(tooWide.status).toBe(403);

    const revoked = await call(keysPage.action, "/dashboard/api-keys", {
      auth: customer,
      method: "POST",
      ...form([
        ["intent", "revoke"],
        ["keyId", created.apiKey._id],
      ]),
    });
    expect(revoked.status).toBe(302);
    expect((await me(created.key)).status).toBe(401);
  });
});
