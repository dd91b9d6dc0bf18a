import { beforeAll, describe, expect, it } from "vitest";

import { action as readAction } from "~/routes/api+/chat+/read";
import { loader as unreadLoader } from "~/routes/api+/chat+/unread";
import * as serviceDetail from "~/routes/dashboard+/_customer+/services.$purchaseId";
import * as dashboard from "~/routes/dashboard+/_layout";
import * as usersTab from "~/routes/dashboard+/_staff+/users+/_index";
import * as userDetail from "~/routes/dashboard+/_staff+/users+/$userId";

import { call, catalogue, createAccount, createPurchase, readJson, type Account } from "../support/dashboard-helpers";
import { postInThread } from "../support/factories";

/**
 * Unread chat counts in the dashboard's loaders: staff get every customer's unread support
 * messages, a customer only the replies in their own thread; reading the thread clears them.
 */

let staff: Account;
let gina: Account;
let hugo: Account;
let ginaPurchase: string;

const page = (account: Account) => ({ cookie: account.cookie });

async function markRead(reader: Account, customer: Account) {
  const response = await call(readAction, "/api/chat/read", {
    auth: page(reader),
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ userId: customer.user.id }),
  });
  expect(response.status).toBe(200);
}

type Unread = { role: "team"; total: number } | { role: "user"; total: number };
const layoutUnread = async (account: Account) =>
  (await readJson<{ unread: Unread }>(await call(dashboard.loader, "/dashboard", { auth: page(account) }))).unread;
/** What the sidebar's live total asks for once a live event changes a thread (decision 323). */
const threadCounts = async (account: Account) =>
  (await readJson<{ data: { byCustomer: Record<string, number> } }>(await call(unreadLoader, "/api/chat/unread", { auth: page(account) }))).data.byCustomer;

beforeAll(async () => {
  const services = await catalogue();
  staff = await createAccount("team", { name: "Ivy Staff" });
  gina = await createAccount("user", { name: "Gina Unread", email: "gina.unread@dash.test" });
  hugo = await createAccount("user", { name: "Hugo Quiet", email: "hugo.quiet@dash.test" });
  ginaPurchase = (await createPurchase(gina.user.id, services[0]!)).purchase.id;
  await createPurchase(hugo.user.id, services[1]!);
});

describe("unread counts in the dashboard", () => {
  it("staff see the unread total in the layout, each customer's in the Users tab, the user's page and on asking; opening the thread clears them", async () => {
    expect(await layoutUnread(staff)).toEqual({ role: "team", total: 0 });
    expect(await threadCounts(staff)).toEqual({});
    await postInThread(gina, "Hello?");
    await postInThread(gina, "Anyone there?");

    expect(await layoutUnread(staff)).toEqual({ role: "team", total: 2 });
    expect(await threadCounts(staff)).toEqual({ [gina.user.id]: 2 });
    const list = await readJson<{ unread: Record<string, number>; staffId: string }>(
      await call(usersTab.loader, "/dashboard/users?search=dash.test", { auth: page(staff) }),
    );
    expect(list.unread).toMatchObject({ [gina.user.id]: 2, [hugo.user.id]: 0 });
    expect(list.staffId).toBe(staff.user.id);
    const detail = await readJson<{ unread: number }>(
      await call(userDetail.loader, `/dashboard/users/${gina.user.id}`, { auth: page(staff), params: { userId: gina.user.id } }),
    );
    expect(detail.unread).toBe(2);

    await markRead(staff, gina);
    expect(await layoutUnread(staff)).toEqual({ role: "team", total: 0 });
    expect(await threadCounts(staff)).toEqual({});
    const after = await readJson<{ unread: number }>(
      await call(userDetail.loader, `/dashboard/users/${gina.user.id}`, { auth: page(staff), params: { userId: gina.user.id } }),
    );
    expect(after.unread).toBe(0);
  });

  it("a customer sees only the unread replies in their own thread, in the layout and on the service page", async () => {
    await postInThread(gina, "We are on it.", staff);
    await postInThread(hugo, "A question from Hugo");

    expect(await layoutUnread(gina)).toEqual({ role: "user", total: 1 });
    expect(await layoutUnread(hugo)).toEqual({ role: "user", total: 0 });
    const service = await readJson<{ unread: number; userId: string }>(
      await call(serviceDetail.loader, `/dashboard/services/${ginaPurchase}`, { auth: page(gina), params: { purchaseId: ginaPurchase } }),
    );
    expect(service).toMatchObject({ unread: 1, userId: gina.user.id });

    await markRead(gina, gina);
    expect(await layoutUnread(gina)).toEqual({ role: "user", total: 0 });
    // Staff still see Hugo's message: Gina reading her thread changes nothing for them.
    expect(await layoutUnread(staff)).toEqual({ role: "team", total: 1 });
    expect(await threadCounts(staff)).toEqual({ [hugo.user.id]: 1 });
  });

  it("the loaders keep their guards: customers get no staff counts, others' purchases stay hidden", async () => {
    expect((await call(usersTab.loader, "/dashboard/users", { auth: page(gina) })).status).toBe(403);
    expect((await call(userDetail.loader, `/dashboard/users/${hugo.user.id}`, { auth: page(gina), params: { userId: hugo.user.id } })).status).toBe(403);
    const foreign = await call(serviceDetail.loader, `/dashboard/services/${ginaPurchase}`, { auth: page(hugo), params: { purchaseId: ginaPurchase } });
    expect(foreign.status).toBe(404);
    const signedOut = await call(dashboard.loader, "/dashboard");
    expect(signedOut.status).toBe(302);
    expect((await call(unreadLoader, "/api/chat/unread", { auth: page(gina) })).status).toBe(403);
  });
});
