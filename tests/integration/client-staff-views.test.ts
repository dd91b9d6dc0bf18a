import { beforeAll, describe, expect, test } from "vitest";

import type { SearchAnswer } from "~/domain/search";
import { inviteMember, renameClient } from "~/models/clients.server";
import { getSessionUser } from "~/models/sessions.server";
import * as threadsApi from "~/routes/api+/chat+/threads";
import * as ordersApi from "~/routes/api+/orders";
import * as usersApi from "~/routes/api+/users+/_layout";
import * as inboxThread from "~/routes/dashboard+/_staff+/inbox+/$customerId";
import * as ordersPage from "~/routes/dashboard+/_staff+/orders+/_index";
import * as orderPage from "~/routes/dashboard+/_staff+/orders+/$orderId";
import * as searchPage from "~/routes/dashboard+/_staff+/search";
import * as usersPage from "~/routes/dashboard+/_staff+/users+/_index";
import * as customerPage from "~/routes/dashboard+/_staff+/users+/$userId";

import { call, readJson } from "../support/dashboard-helpers";
import { catalogue, createAccount, createPurchase, postInThread, uniqueEmail, type Account } from "../support/factories";

/*
 * Staff see a customer's client (decision 295): on the customer's page with its members and roles
 * (any member's id opens it), in the users list and its search, in the inbox (the thread names the
 * client, each message its writer) and beside the buyer of an order; the JSON answers carry
 * `client: {_id, name}` and the screens' loaders `client: {id, name}`.
 */

type Ref = { _id: string; name: string };
/** The screens take a client by `id` (decision 309). */
type ScreenRef = { id: string; name: string };
let staff: Account;
let owner: Account;
let member: { id: string; name: string; email: string };
const companyName = `Quayside Coffee ${crypto.randomUUID().slice(0, 6)}`;

beforeAll(async () => {
  staff = await createAccount({ role: "team", name: "Sol Staff" });
  owner = await createAccount({ role: "user", name: "Nadia Owner" });
  const actor = (await getSessionUser(owner.bearer, "bearer"))!;
  await renameClient(actor, companyName);
  ({ member } = await inviteMember(actor, { email: uniqueEmail("colleague"), name: "Milo Member", role: "member" }));
});

const asStaff = () => ({ cookie: staff.cookie });

describe("the customer's page", () => {
  test("shows the client with each member and role; a member's id opens the client's page", async () => {
    const page = await call(customerPage.loader, `/dashboard/users/${owner.id}`, { auth: asStaff(), params: { userId: owner.id } });
    expect(page.status).toBe(200);
    const { client } = await readJson<{ client: { id: string; name: string; members: { id: string; role: string; joinedAt: string | null }[] } }>(page);
    expect(client).toMatchObject({ id: owner.id, name: companyName });
    expect(client.members.map((m) => [m.id, m.role, m.joinedAt === null])).toEqual([
      [owner.id, "owner", false],
      [member.id, "member", true],
    ]);

    const viaMember = await call(customerPage.loader, `/dashboard/users/${member.id}/message?x=1`, { auth: asStaff(), params: { userId: member.id } });
    expect(viaMember.status).toBe(302);
    expect(viaMember.headers.get("Location")).toBe(`/dashboard/users/${owner.id}/message?x=1`);
  });
});

describe("the users list", () => {
  test("names each account's client, and a search by a member's name or the client's name finds them", async () => {
    const byMember = await readJson<{ users: { id: string; client: ScreenRef | null }[] }>(
      await call(usersPage.loader, `/dashboard/users?search=${encodeURIComponent("Milo Member")}`, { auth: asStaff() }),
    );
    expect(byMember.users.find((u) => u.id === member.id)?.client).toEqual({ id: owner.id, name: companyName });

    const byClient = await readJson<{ users: { id: string }[] }>(
      await call(usersPage.loader, `/dashboard/users?search=${encodeURIComponent(companyName)}`, { auth: asStaff() }),
    );
    expect(byClient.users.map((u) => u.id).sort()).toEqual([owner.id, member.id].sort());

    const api = await call(usersApi.loader, `/api/users?search=${encodeURIComponent(companyName)}`, { auth: staff });
    expect(api.status).toBe(200);
    const body = await readJson<{ data: { users: { _id: string; client: Ref | null }[] } }>(api);
    expect(body.data.users.map((u) => u.client)).toEqual([
      { _id: owner.id, name: companyName },
      { _id: owner.id, name: companyName },
    ]);
  });
});

describe("the inbox", () => {
  test("the thread names the client and each message its writer", async () => {
    await postInThread(owner, "Can we move Friday's post?");
    await postInThread(owner, "And add our new logo, please.", { id: member.id, name: member.name });
    const page = await call(inboxThread.loader, `/dashboard/inbox/${owner.id}`, { auth: asStaff(), params: { customerId: owner.id } });
    expect(page.status).toBe(200);
    const data = await readJson<{ thread: { client: Ref | null }; chat: { messages: { message: string; senderId: { _id: string; name: string } }[] } }>(page);
    expect(data.thread.client).toEqual({ _id: owner.id, name: companyName });
    const writers = data.chat.messages.map((m) => [m.message, m.senderId.name]);
    expect(writers).toEqual([
      ["Can we move Friday's post?", "Nadia Owner"],
      ["And add our new logo, please.", "Milo Member"],
    ]);

    const api = await call(threadsApi.loader, `/api/chat/threads?search=${encodeURIComponent("Nadia")}`, { auth: staff });
    expect(api.status).toBe(200);
    const { threads } = (await readJson<{ data: { threads: { customer: { _id: string }; client: Ref | null }[] } }>(api)).data;
    expect(threads.find((t) => t.customer._id === owner.id)?.client).toEqual({ _id: owner.id, name: companyName });
  });
});

describe("the staff search", () => {
  test("a customer's hit and their conversation's carry the client, from the same read", async () => {
    const answer = await readJson<SearchAnswer>(
      await call(searchPage.loader, `/dashboard/search?${new URLSearchParams({ q: member.email })}`, { auth: asStaff() }),
    );
    expect(answer.groups!.customers.find((hit) => hit.id === member.id)?.client).toEqual({ id: owner.id, name: companyName });

    const threads = await readJson<SearchAnswer>(
      await call(searchPage.loader, `/dashboard/search?${new URLSearchParams({ q: owner.email })}`, { auth: asStaff() }),
    );
    expect(threads.groups!.threads.find((hit) => hit.href === `/dashboard/inbox/${owner.id}`)?.client).toEqual({ id: owner.id, name: companyName });
    expect(threads.groups!.customers.find((hit) => hit.id === owner.id)?.client).toEqual({ id: owner.id, name: companyName });
  });
});

describe("orders", () => {
  test("the list, the order's page and GET /api/orders name the buyer's client", async () => {
    const [service] = await catalogue();
    const { order } = await createPurchase(owner.id, service!);
    const list = await readJson<{ orders: { id: string; client: { id: string; name: string } | null }[] }>(
      await call(ordersPage.loader, `/dashboard/orders?search=${encodeURIComponent(order.email)}`, { auth: asStaff() }),
    );
    expect(list.orders.find((o) => o.id === order.id)?.client).toEqual({ id: owner.id, name: companyName });

    const detail = await readJson<{ order: { client: { id: string; name: string } | null } }>(
      await call(orderPage.loader, `/dashboard/orders/${order.id}`, { auth: asStaff(), params: { orderId: order.id } }),
    );
    expect(detail.order.client).toEqual({ id: owner.id, name: companyName });

    const api = await call(ordersApi.loader, `/api/orders?search=${encodeURIComponent(order.email)}`, { auth: staff });
    expect(api.status).toBe(200);
    const { orders } = (await readJson<{ data: { orders: { _id: string; client: Ref | null }[] } }>(api)).data;
    expect(orders).toEqual([expect.objectContaining({ _id: order.id, client: { _id: owner.id, name: companyName } })]);

    const guest = await createPurchase(null, service!);
    const guestApi = await call(ordersApi.loader, `/api/orders?search=${encodeURIComponent(guest.order.email)}`, { auth: staff });
    expect((await readJson<{ data: { orders: { client: Ref | null }[] } }>(guestApi)).data.orders).toEqual([expect.objectContaining({ client: null })]);
  });
});
