import { beforeAll, describe, expect, it } from "vitest";

import { HttpError } from "~/utils/http.server";

import { catalogue, createAccount, createPurchase, type Account } from "../../tests/support/dashboard-helpers";
import { findPaidPurchase, getPurchaseFor, listPurchasesByEmail, listPurchasesForUser, setPurchaseStatus, toPurchaseJson } from "./purchases.server";

let services: Awaited<ReturnType<typeof catalogue>>;
let staff: Account;
let alice: Account;
let bob: Account;
beforeAll(async () => {
  services = await catalogue();
  staff = await createAccount("team");
  alice = await createAccount("user", { email: "Alice.Purchases@Dash.test" });
  bob = await createAccount("user");
});

const days = (n: number) => new Date(Date.now() - n * 24 * 3600_000);

describe("purchases", () => {
  it("lists a customer's paid and refunded purchases newest first, never pending or cancelled ones", async () => {
    const old = await createPurchase(alice.user.id, services[0], { createdAt: days(10) });
    const recent = await createPurchase(alice.user.id, services[1], { createdAt: days(1), status: "completed" });
    const refunded = await createPurchase(alice.user.id, services[2], { createdAt: days(5), status: "refunded" });
    await createPurchase(alice.user.id, services[3], { status: "pending" });
    await createPurchase(alice.user.id, services[4], { status: "cancelled" });
    const ids = (await listPurchasesForUser(alice.user.id)).map((p) => p.id);
    expect(ids).toEqual([recent.purchase.id, refunded.purchase.id, old.purchase.id]);
    expect((await listPurchasesByEmail("  alice.purchases@dash.TEST ")).map((p) => p.id)).toEqual(ids);
    expect(await listPurchasesByEmail("nobody@dash.test")).toEqual([]);
  });

  it("shapes a purchase as the API documents it: dollars, ISO date, the service", async () => {
    const { purchase, order } = await createPurchase(bob.user.id, services[1], { quantity: 3 });
    const row = await getPurchaseFor(bob.user, purchase.id);
    expect(toPurchaseJson(row)).toEqual({
      _id: purchase.id,
      id: purchase.id,
      amount: (services[1].priceCents * 3) / 100,
      currency: "usd",
      quantity: 3,
      status: "in_progress",
      createdAt: purchase.createdAt.toISOString(),
      stripeSessionId: order.stripeSessionId,
      service: { _id: services[1].id, name: services[1].name, description: services[1].description },
      assignee: null,
      dueAt: null,
      brief: { required: false, submittedAt: null },
    });
  });

  it("one purchase: the owner and staff see it; another customer, a malformed id or an unknown id get the same 404", async () => {
    const { purchase } = await createPurchase(alice.user.id, services[0]);
    expect((await getPurchaseFor(alice.user, purchase.id)).id).toBe(purchase.id);
    expect((await getPurchaseFor(staff.user, purchase.id)).id).toBe(purchase.id);
    for (const id of [purchase.id, "not-a-uuid", "00000000-0000-4000-8000-000000000000"]) {
      const error = await getPurchaseFor(bob.user, id).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(HttpError);
      expect((error as HttpError).status).toBe(404);
      expect((error as HttpError).message).toBe("Purchase not found.");
    }
  });

  it("staff move paid work between in progress and completed; other states and customers are refused", async () => {
    const { purchase } = await createPurchase(alice.user.id, services[0]);
    const done = await setPurchaseStatus(staff.user, purchase.id, "completed");
    expect(done.status).toBe("completed");
    expect(done.completedAt).toBeInstanceOf(Date);
    const back = await setPurchaseStatus(staff.user, purchase.id, "in_progress");
    expect(back).toMatchObject({ status: "in_progress", completedAt: null });

    const pending = await createPurchase(alice.user.id, services[0], { status: "pending" });
    await expect(setPurchaseStatus(staff.user, pending.purchase.id, "completed")).rejects.toMatchObject({ status: 409 });
    const refunded = await createPurchase(alice.user.id, services[0], { status: "refunded" });
    await expect(setPurchaseStatus(staff.user, refunded.purchase.id, "completed")).rejects.toMatchObject({ status: 409 });
    await expect(setPurchaseStatus(alice.user, purchase.id, "completed")).rejects.toMatchObject({ status: 403 });
  });

  it("finds the newest paid purchase of a service for uploads", async () => {
    await createPurchase(bob.user.id, services[6], { createdAt: days(3) });
    const newer = await createPurchase(bob.user.id, services[6], { createdAt: days(1) });
    await createPurchase(bob.user.id, services[7], { status: "pending" });
    expect((await findPaidPurchase(bob.user.id, services[6].id))?.id).toBe(newer.purchase.id);
    expect(await findPaidPurchase(bob.user.id, services[7].id)).toBeNull();
    expect(await findPaidPurchase(alice.user.id, services[6].id)).toBeNull();
  });
});
