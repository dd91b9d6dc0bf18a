import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";

import { MAX_CLIENT_MEMBERS } from "~/domain/clients";
import { backfillClientsOfOne } from "~/models/clients.server";
import { createSession } from "~/models/sessions.server";
import * as landing from "~/routes/_index";
import * as accountApi from "~/routes/api+/account+/_layout";
import * as conversationApi from "~/routes/api+/chat+/conversation.$userId";
import * as clientApi from "~/routes/api+/client+/_layout";
import * as membersApi from "~/routes/api+/client+/members";
import * as memberApi from "~/routes/api+/client+/members.$userId";
import * as clientsApi from "~/routes/api+/clients+/_layout";
import * as clientByIdApi from "~/routes/api+/clients+/$id";
import * as receiptsApi from "~/routes/api+/receipts.my";
import * as myPurchasesApi from "~/routes/api+/services+/my-purchases";
import * as enableApi from "~/routes/api+/users+/$id.enable";
import * as checkoutRoute from "~/routes/checkout.[test].$sessionId";
import { db, schema } from "~/utils/db.server";

import { passwordLinkIn } from "../fakes/email-links";
import { settle } from "../support/call-route";
import { call, readJson } from "../support/dashboard-helpers";
import { catalogue, createAccount, createPurchase, createTestUser, uniqueEmail, type Account } from "../support/factories";
import { readOutbox } from "../support/outbox";
import { CONTEXT, formRequest, freshContext, seedServices } from "../support/payments-helpers";

/*
 * Client teams (decision 283): a customer is a client of several people with roles. Every existing
 * customer is the owner of a client of one; an owner invites, changes roles and removes; each role
 * sees what it covers; removing ends the member's sessions; the last owner stays.
 */

type Member = { _id: string; name: string; email: string; role: string; joinedAt: string | null };
const json = (body: unknown) => ({ body: JSON.stringify(body), headers: { "Content-Type": "application/json" } });

async function invite(owner: Account, role: string, email = uniqueEmail("member")) {
  const response = await call(membersApi.action, "/api/client/members", { auth: owner, method: "POST", ...json({ email, name: `Sam ${role}`, role }) });
  return { response, email };
}

/** An invited member signed in (as if they took the link): a bearer token of their own. */
async function invitedAs(owner: Account, role: string) {
  const { response, email } = await invite(owner, role);
  expect(response.status).toBe(201);
  const { member } = (await readJson<{ data: { member: Member } }>(response)).data;
  const { token } = await createSession(member._id, "bearer");
  return { id: member._id, email, bearer: token };
}

describe("a client of one", () => {
  test("an existing customer owns a client named after them, and is its only member", async () => {
    const owner = await createAccount({ role: "user", name: "Dana Founder" });
    const response = await call(clientApi.loader, "/api/client", { auth: owner });
    expect(response.status).toBe(200);
    expect((await readJson(response)).data).toEqual({
      client: { _id: owner.id, name: "Dana Founder" },
      role: "owner",
      members: [{ _id: owner.id, name: "Dana Founder", email: owner.email, role: "owner", joinedAt: expect.any(String) }],
    });
  });

  test("an account written before client teams (no member row) is the owner of a client of one, made on first read", async () => {
    const owner = await createAccount({ role: "user", name: "Old Timer" });
    await db.delete(schema.clientMembers).where(eq(schema.clientMembers.userId, owner.id));
    await db.delete(schema.clients).where(eq(schema.clients.id, owner.id));
    const response = await call(clientApi.loader, "/api/client", { auth: owner });
    expect(response.status).toBe(200);
    expect((await readJson<{ data: { role: string; client: { _id: string } } }>(response)).data).toMatchObject({ role: "owner", client: { _id: owner.id } });
  });

  test("the backfill makes every customer without a member row the owner of a client of one, in batches, and leaves members alone", async () => {
    const earlier = await Promise.all([1, 2, 3].map((i) => createAccount({ role: "user", name: `Earlier ${i}` })));
    const staff = await createAccount({ role: "team" });
    const invitedBy = await createAccount({ role: "user" });
    const member = await invitedAs(invitedBy, "member");
    for (const account of earlier) {
      await db.delete(schema.clientMembers).where(eq(schema.clientMembers.userId, account.id));
      await db.delete(schema.clients).where(eq(schema.clients.id, account.id));
    }
    expect(await backfillClientsOfOne(2)).toBe(3);
    expect(await backfillClientsOfOne(2)).toBe(0);
    for (const account of earlier) {
      const [row] = await db.select().from(schema.clientMembers).where(eq(schema.clientMembers.userId, account.id));
      expect(row).toMatchObject({ clientId: account.id, role: "owner" });
      const [client] = await db.select().from(schema.clients).where(eq(schema.clients.id, account.id));
      expect(client!.name).toBe(account.name);
    }
    expect(await db.select().from(schema.clientMembers).where(eq(schema.clientMembers.userId, staff.id))).toEqual([]);
    const [kept] = await db.select().from(schema.clientMembers).where(eq(schema.clientMembers.userId, member.id));
    expect(kept!.clientId).toBe(invitedBy.id);
  });

  test("an owner renames the client; a blank name is refused in words", async () => {
    const owner = await createAccount({ role: "user" });
    const renamed = await call(clientApi.action, "/api/client", { auth: owner, method: "PATCH", ...json({ name: "Acme Bakery" }) });
    expect(renamed.status).toBe(200);
    expect((await readJson(renamed)).data).toEqual({ client: { _id: owner.id, name: "Acme Bakery" } });
    const blank = await call(clientApi.action, "/api/client", { auth: owner, method: "PATCH", ...json({ name: "  " }) });
    expect(blank.status).toBe(400);
    expect((await readJson<{ message: string }>(blank)).message).toMatch(/Name is required/);
  });
});

describe("invitations", () => {
  test("an owner invites a member: listed as invited, an e-mail with a set-password link; the first sign-in joins", async () => {
    const owner = await createAccount({ role: "user", name: "Olive Owner" });
    const { response, email } = await invite(owner, "approver");
    expect(response.status).toBe(201);
    const { member } = (await readJson<{ data: { member: Member } }>(response)).data;
    expect(member).toMatchObject({ email, role: "approver", joinedAt: null });
    const mail = readOutbox(email).find((m) => m.subject.includes("invited you"))!;
    expect(mail.subject).toBe(`Olive Owner invited you to Olive Owner on BrandLift`);
    expect(passwordLinkIn(mail.raw)).toContain("/reset-password?token=");

    await createSession(member._id, "cookie");
    const listed = (await readJson<{ data: { members: Member[] } }>(await call(clientApi.loader, "/api/client", { auth: owner }))).data.members;
    expect(listed.find((m) => m._id === member._id)?.joinedAt).toEqual(expect.any(String));
  });

  test("an e-mail of another client, of staff or of a member already here is refused (409); a 51st member too", async () => {
    const owner = await createAccount({ role: "user" });
    const other = await createAccount({ role: "user" });
    const staff = await createAccount({ role: "team" });
    for (const email of [other.email, staff.email.toUpperCase()]) {
      const { response } = await invite(owner, "member", email);
      expect(response.status).toBe(409);
      expect((await readJson<{ message: string }>(response)).message).toBe("This e-mail address already belongs to another client or to the BrandLift team.");
    }
    const { email } = await invite(owner, "member");
    const again = await invite(owner, "member", email);
    expect(again.response.status).toBe(409);
    expect((await readJson<{ message: string }>(again.response)).message).toBe("This person is already a member of your client.");

    // Fill the client to 50 (the owner and the member above are two of them).
    for (let i = 0; i < MAX_CLIENT_MEMBERS - 2; i += 1) {
      const user = await createTestUser({ role: "user" });
      await db.delete(schema.clientMembers).where(eq(schema.clientMembers.userId, user.id));
      await db.insert(schema.clientMembers).values({ userId: user.id, clientId: owner.id, role: "member" });
    }
    const full = await invite(owner, "member");
    expect(full.response.status).toBe(409);
    expect((await readJson<{ message: string }>(full.response)).message).toMatch(/at most 50 members/);
  });

  test("only an owner invites, renames or changes roles (403 with the reason)", async () => {
    const owner = await createAccount({ role: "user" });
    const approver = await invitedAs(owner, "approver");
    const asApprover = { bearer: approver.bearer };
    const invited = await call(membersApi.action, "/api/client/members", {
      auth: asApprover,
      method: "POST",
      ...json({ email: uniqueEmail("x"), name: "X", role: "member" }),
    });
    expect(invited.status).toBe(403);
    expect((await readJson<{ message: string }>(invited)).message).toMatch(/role in your company's account does not cover this/);
    expect((await call(clientApi.action, "/api/client", { auth: asApprover, method: "PATCH", ...json({ name: "Mine now" }) })).status).toBe(403);
    expect(
      (
        await call(memberApi.action, `/api/client/members/${owner.id}`, {
          auth: asApprover,
          method: "PATCH",
          params: { userId: owner.id },
          ...json({ role: "member" }),
        })
      ).status,
    ).toBe(403);
  });
});

describe("what each role sees", () => {
  let owner: Account;
  let bought: { order: { id: string }; purchase: { id: string } };
  beforeAll(async () => {
    owner = await createAccount({ role: "user" });
    const [service] = await catalogue();
    bought = await createPurchase(owner.id, service!);
  });

  test("an approver and a member see the client's purchases but not its receipts; billing the receipts but not the purchases", async () => {
    for (const role of ["approver", "member"]) {
      const member = await invitedAs(owner, role);
      const purchases = await call(myPurchasesApi.loader, "/api/services/my-purchases", { auth: { bearer: member.bearer } });
      expect(purchases.status).toBe(200);
      expect((await readJson<{ data: { _id: string }[] }>(purchases)).data.map((p) => p._id)).toContain(bought.purchase.id);
      expect((await call(receiptsApi.loader, "/api/receipts/my", { auth: { bearer: member.bearer } })).status).toBe(403);
    }
    const billing = await invitedAs(owner, "billing");
    expect((await call(myPurchasesApi.loader, "/api/services/my-purchases", { auth: { bearer: billing.bearer } })).status).toBe(403);
    const receipts = await call(receiptsApi.loader, "/api/receipts/my", { auth: { bearer: billing.bearer } });
    expect(receipts.status).toBe(200);
    expect((await readJson<{ data: { receipts: { _id: string }[] } }>(receipts)).data.receipts.map((r) => r._id)).toContain(bought.order.id);
  });

  test("staff open the client's thread by any member's id; a billing member cannot read it", async () => {
    const staff = await createAccount({ role: "team" });
    const member = await invitedAs(owner, "member");
    const byMember = await call(conversationApi.loader, `/api/chat/conversation/${member.id}`, { auth: staff, params: { userId: member.id } });
    expect(byMember.status).toBe(200);
    const billing = await invitedAs(owner, "billing");
    const refused = await call(conversationApi.loader, `/api/chat/conversation/${owner.id}`, {
      auth: { bearer: billing.bearer },
      params: { userId: owner.id },
    });
    expect(refused.status).toBe(404);
  });

  test("staff list clients with their members and find one by a member's e-mail; a member's id opens the client", async () => {
    const staff = await createAccount({ role: "team" });
    const member = await invitedAs(owner, "approver");
    const found = await call(clientsApi.loader, `/api/clients?search=${encodeURIComponent(member.email)}`, { auth: staff });
    expect(found.status).toBe(200);
    const { clients, total } = (await readJson<{ data: { clients: { _id: string; members: Member[] }[]; total: number } }>(found)).data;
    expect(total).toBe(1);
    expect(clients[0]!._id).toBe(owner.id);
    expect(clients[0]!.members.map((m) => m.email)).toEqual(expect.arrayContaining([owner.email, member.email]));
    const one = await call(clientByIdApi.loader, `/api/clients/${member.id}`, { auth: staff, params: { id: member.id } });
    expect((await readJson<{ data: { client: { _id: string } } }>(one)).data.client._id).toBe(owner.id);
    expect((await call(clientsApi.loader, "/api/clients", { auth: owner })).status).toBe(403);
  });
});

describe("roles, removal and leaving", () => {
  test("the last owner cannot stop being one or leave (409); with a second owner they can", async () => {
    const owner = await createAccount({ role: "user" });
    const demote = () =>
      call(memberApi.action, `/api/client/members/${owner.id}`, { auth: owner, method: "PATCH", params: { userId: owner.id }, ...json({ role: "member" }) });
    const lastOwner = await demote();
    expect(lastOwner.status).toBe(409);
    expect((await readJson<{ message: string }>(lastOwner)).message).toBe("A client needs an owner: make someone else an owner first.");
    const leave = await call(memberApi.action, `/api/client/members/${owner.id}`, { auth: owner, method: "DELETE", params: { userId: owner.id } });
    expect(leave.status).toBe(409);

    const second = await invitedAs(owner, "member");
    const promoted = await call(memberApi.action, `/api/client/members/${second.id}`, {
      auth: owner,
      method: "PATCH",
      params: { userId: second.id },
      ...json({ role: "owner" }),
    });
    expect(promoted.status).toBe(200);
    expect((await readJson<{ data: { member: Member } }>(promoted)).data.member.role).toBe("owner");
    expect((await demote()).status).toBe(200);
    const audit = await db.select().from(schema.auditEntries).where(eq(schema.auditEntries.targetId, owner.id));
    expect(audit.map((entry) => entry.action)).toEqual(expect.arrayContaining(["client.invite", "client.role"]));
  });

  test("removing a member ends their sessions at once, keeps their account off, and staff cannot simply turn it back on", async () => {
    const owner = await createAccount({ role: "user" });
    const staff = await createAccount({ role: "team" });
    const member = await invitedAs(owner, "member");
    expect((await call(myPurchasesApi.loader, "/api/services/my-purchases", { auth: { bearer: member.bearer } })).status).toBe(200);
    const removed = await call(memberApi.action, `/api/client/members/${member.id}`, { auth: owner, method: "DELETE", params: { userId: member.id } });
    expect(removed.status).toBe(200);
    expect(await removed.json()).toEqual({ status: "success" });
    expect((await call(myPurchasesApi.loader, "/api/services/my-purchases", { auth: { bearer: member.bearer } })).status).toBe(401);
    const [user] = await db.select().from(schema.users).where(eq(schema.users.id, member.id));
    expect(user!.disabledAt).not.toBeNull();
    const enabled = await call(enableApi.action, `/api/users/${member.id}/enable`, { auth: staff, method: "POST", params: { id: member.id } });
    expect(enabled.status).toBe(409);
    const members = (await readJson<{ data: { members: Member[] } }>(await call(clientApi.loader, "/api/client", { auth: owner }))).data.members;
    expect(members.map((m) => m._id)).not.toContain(member.id);
    // Taken back by a new invitation from an owner.
    const again = await invite(owner, "approver", member.email);
    expect(again.response.status).toBe(201);
  });

  test("a member deleting their account leaves the client's work with the others; the last owner of a team cannot", async () => {
    const owner = await createAccount({ role: "user", password: "owner-password-1" });
    const [service] = await catalogue();
    await createPurchase(owner.id, service!);
    const member = await createAccount({ role: "user", password: "member-password-1" });
    await db.update(schema.clientMembers).set({ clientId: owner.id, role: "member" }).where(eq(schema.clientMembers.userId, member.id));
    const refused = await call(accountApi.action, "/api/account", { auth: owner, method: "DELETE", ...json({ password: "owner-password-1" }) });
    expect(refused.status).toBe(409);
    expect((await readJson<{ message: string }>(refused)).message).toMatch(/last owner/);
    const deleted = await call(accountApi.action, "/api/account", { auth: member, method: "DELETE", ...json({ password: "member-password-1" }) });
    expect(deleted.status).toBe(200);
    expect((await db.select().from(schema.purchases).where(eq(schema.purchases.userId, owner.id))).length).toBe(1);
    const [row] = await db.select().from(schema.clientMembers).where(eq(schema.clientMembers.userId, member.id));
    expect(row!.removedAt).not.toBeNull();
  });
});

describe("a member's guest checkout", () => {
  test("paying with a member's e-mail adds the order to that member's client", async () => {
    const services = await seedServices();
    const owner = await createAccount({ role: "user" });
    const member = await invitedAs(owner, "member");
    const ordered = (
      await settle(() =>
        landing.action({
          request: formRequest("/?index", { intent: "order", name: "Sam Member", email: member.email, services: services[0]!.id }),
          params: {},
          context: freshContext(),
        }),
      )
    ).response;
    const sessionId = ordered.headers.get("Location")!.split("/checkout/test/")[1]!;
    const fields = { intent: "pay", cardNumber: "4242 4242 4242 4242", expiry: "12 / 39", cvc: "123", cardholder: "Sam Member" };
    await settle(() => checkoutRoute.action({ request: formRequest(`/checkout/test/${sessionId}`, fields), params: { sessionId }, context: CONTEXT }));
    const [order] = await db.select().from(schema.orders).where(eq(schema.orders.stripeSessionId, sessionId));
    expect(order!.status).toBe("paid");
    expect(order!.userId).toBe(owner.id);
    const purchases = await db.select().from(schema.purchases).where(eq(schema.purchases.orderId, order!.id));
    expect(purchases.every((p) => p.userId === owner.id)).toBe(true);
  });
});
