import { describe, expect, test } from "vitest";

import { updatePurchase } from "~/models/purchases.server";
import { action as loginAction } from "~/routes/_auth+/login";
import * as customerOverview from "~/routes/dashboard+/_customer+/services._index";
import * as overview from "~/routes/dashboard+/_index";
import * as dashboard from "~/routes/dashboard+/_layout";
import * as work from "~/routes/dashboard+/_staff+/work";

import { call, catalogue, createAccount, createPurchase, readJson } from "../support/dashboard-helpers";
import { formRequest } from "../support/requests";
import { createTestUser, loadContext } from "./authorization/helpers";

/** The staff workspace's screens (decision 155): the overview only on the Overview page, "My work", the landing after sign-in. */

const page = (account: { cookie: string }) => ({ cookie: account.cookie });
const form = (fields: Record<string, string>) => ({
  method: "POST",
  body: new URLSearchParams(fields),
  headers: { "Content-Type": "application/x-www-form-urlencoded" },
});

describe("layout and overview", () => {
  test("the staff layout carries no overview; the Overview page has the cards and the 12-month chart", async () => {
    const staff = await createAccount("team");
    const layout = await readJson<Record<string, unknown>>(await call(dashboard.loader, "/dashboard/orders", { auth: page(staff) }));
    expect(layout).not.toHaveProperty("counts");
    expect(layout.revenue).toBeUndefined();
    const body = await readJson<{ counts: { ok: boolean; data: Record<string, unknown> }; revenue: { ok: boolean; data: unknown[] } }>(
      await call(overview.loader, "/dashboard", { auth: page(staff) }),
    );
    expect(body.counts.data).toMatchObject({ role: "team", totalRevenueCents: expect.any(Number), servicesBooked: expect.any(Number) });
    expect(body.revenue.data).toHaveLength(12);
  });

  test("customers have their counts on their overview only; /dashboard sends them to it", async () => {
    const customer = await createAccount("user");
    const layout = await readJson<Record<string, unknown>>(await call(dashboard.loader, "/dashboard/calendar", { auth: page(customer) }));
    expect(layout).not.toHaveProperty("counts");
    expect(layout).not.toHaveProperty("plans");
    const mine = await readJson<{ counts: { ok: boolean; data: { role: string } } }>(
      await call(customerOverview.loader, "/dashboard/services", { auth: page(customer) }),
    );
    expect(mine.counts.data.role).toBe("user");
    const index = await call(overview.loader, "/dashboard", { auth: page(customer) });
    expect(index.headers.get("Location")).toBe("/dashboard/services");
  });
});

describe("my work", () => {
  test("lists my open work soonest due first, filters, and its forms change only my own work", async () => {
    const services = await catalogue();
    const staff = await createAccount("team");
    const other = await createAccount("team");
    const customer = await createAccount("user", { name: "Wanda Work" });
    const make = async () => (await createPurchase(customer.user.id, services[0])).purchase.id;
    const [late, soon, someoneElses] = [await make(), await make(), await make()];
    await updatePurchase(staff.user, late, { assigneeId: staff.user.id, dueAt: new Date(Date.now() - 86_400_000) });
    await updatePurchase(staff.user, soon, { assigneeId: staff.user.id, dueAt: new Date(Date.now() + 2 * 86_400_000) });
    await updatePurchase(staff.user, someoneElses, { assigneeId: other.user.id });

    type Items = { filter: string; items: { id: string; overdue: boolean; customer: { name: string } }[] };
    const list = async (query = "") => readJson<Items>(await call(work.loader, `/dashboard/work${query}`, { auth: page(staff) }));
    const all = await list();
    expect(all.items.map((i) => i.id)).toEqual([late, soon]);
    expect(all.items.map((i) => i.overdue)).toEqual([true, false]);
    expect(all.items[0].customer.name).toBe("Wanda Work");
    expect((await list("?due=overdue")).items.map((i) => i.id)).toEqual([late]);
    expect((await list("?due=nonsense")).filter).toBe("all");

    const post = (fields: Record<string, string>) => call(work.action, "/dashboard/work", { auth: page(staff), ...form(fields) });
    expect((await post({ intent: "due", purchaseId: late, dueOn: "2099-01-31" })).status).toBe(302);
    expect((await list()).items.map((i) => i.id)).toEqual([soon, late]);
    expect((await post({ intent: "due", purchaseId: late, dueOn: "soon" })).status).toBe(400);
    // An empty date field clears the due date.
    expect((await post({ intent: "due", purchaseId: late, dueOn: "" })).status).toBe(302);
    expect((await post({ intent: "complete", purchaseId: someoneElses })).status).toBe(404);
    expect((await post({ intent: "complete", purchaseId: soon })).status).toBe(302);
    expect((await post({ intent: "unassign", purchaseId: late })).status).toBe(302);
    expect((await list()).items).toEqual([]);
  });

  test("staff with assigned work land on My work after signing in; others on /dashboard; redirectTo wins", async () => {
    const services = await catalogue();
    const password = "work password 1";
    const busy = await createTestUser({ role: "team", password });
    const idle = await createTestUser({ role: "team", password });
    const { purchase } = await createPurchase(null, services[0]);
    await updatePurchase(busy, purchase.id, { assigneeId: busy.id });
    const signIn = async (email: string, redirectTo = "") => {
      const response = (await loginAction({ request: formRequest("/login", { email, password, redirectTo }), params: {}, context: loadContext() })) as Response;
      return response.headers.get("Location");
    };
    expect(await signIn(busy.email)).toBe("/dashboard/work");
    expect(await signIn(idle.email)).toBe("/dashboard");
    expect(await signIn(busy.email, "/dashboard/inbox")).toBe("/dashboard/inbox");
  });
});
