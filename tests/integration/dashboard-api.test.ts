import { beforeAll, describe, expect, it } from "vitest";

import * as myReports from "~/routes/api+/reports+/my-reports";
import * as reportsByService from "~/routes/api+/reports+/service.$serviceId";
import * as myPurchases from "~/routes/api+/services+/my-purchases";
import * as purchasesByEmail from "~/routes/api+/services+/purchases";
import * as purchaseById from "~/routes/api+/services+/purchases.$id";
import * as users from "~/routes/api+/users+/_layout";
import * as userPurchases from "~/routes/api+/users+/$id.purchases";
import * as usersCount from "~/routes/api+/users+/count";
import { db, schema } from "~/utils/db.server";

import { call, catalogue, createAccount, createPurchase, readJson, type Account } from "../support/dashboard-helpers";
import { postUpload, samples } from "../support/reports-cases";

/** The JSON calls of the spec's table with the exact shapes of docs/api.md. */

let services: Awaited<ReturnType<typeof catalogue>>;
let staff: Account;
let alice: Account;
let bob: Account;
let alicePurchase: string;
let reportId: string;

const ERROR_SHAPE = { success: false, status: "error", message: expect.any(String), error: expect.any(String), code: expect.any(String) };

beforeAll(async () => {
  services = await catalogue();
  staff = await createAccount("team");
  alice = await createAccount("user", { name: "Alice Shape", email: "alice.shape@dash.test" });
  bob = await createAccount("user", { name: "Bob Shape" });
  alicePurchase = (await createPurchase(alice.user.id, services[0], { quantity: 2 })).purchase.id;
  await createPurchase(bob.user.id, services[1]);
  const uploaded = await postUpload(staff, services[0].id, {
    file: { name: "plan.pdf", bytes: samples.pdf() },
    title: "Plan",
    description: " First steps ",
    userId: alice.user.id,
  });
  reportId = (await uploaded.json()).data._id;
});

const purchaseShape = (id: string) => ({
  _id: id,
  id,
  amount: (services[0].priceCents * 2) / 100,
  currency: "usd",
  quantity: 2,
  status: "in_progress",
  createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
  stripeSessionId: expect.stringMatching(/^cs_test_/),
  service: { _id: services[0].id, name: services[0].name, description: services[0].description },
  assignee: null,
  dueAt: null,
  brief: { required: false, submittedAt: null },
});

describe("purchases API", () => {
  it("GET /api/services/my-purchases: only one's own, as Purchase objects", async () => {
    const body = await readJson(await call(myPurchases.loader, "/api/services/my-purchases", { auth: alice }));
    expect(body).toEqual({ success: true, data: [purchaseShape(alicePurchase)] });
  });

  it("GET /api/services/purchases/:id: owner and staff; another customer gets the error shape with 404", async () => {
    for (const who of [alice, staff]) {
      const body = await readJson(await call(purchaseById.loader, `/api/services/purchases/${alicePurchase}`, { auth: who, params: { id: alicePurchase } }));
      expect(body).toEqual({ success: true, data: purchaseShape(alicePurchase) });
    }
    const refused = await call(purchaseById.loader, `/api/services/purchases/${alicePurchase}`, { auth: bob, params: { id: alicePurchase } });
    expect(refused.status).toBe(404);
    expect(await refused.json()).toEqual({ ...ERROR_SHAPE, code: "NOT_FOUND", message: "Purchase not found." });
  });

  it("PATCH /api/services/purchases/:id: staff set in_progress or completed, anything else is 400", async () => {
    const patch = (status: unknown) =>
      call(purchaseById.action, `/api/services/purchases/${alicePurchase}`, {
        auth: staff,
        method: "PATCH",
        params: { id: alicePurchase },
        body: JSON.stringify({ status }),
        headers: { "Content-Type": "application/json" },
      });
    expect(await readJson(await patch("completed"))).toEqual({ success: true, data: { ...purchaseShape(alicePurchase), status: "completed" } });
    const bad = await patch("refunded");
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ ...ERROR_SHAPE, message: "Status must be in_progress or completed." });
    expect((await readJson(await patch("in_progress"))).data).toMatchObject({ status: "in_progress" });
  });

  it("GET /api/services/purchases?email= and /api/users/:id/purchases (staff)", async () => {
    const byEmail = await readJson(await call(purchasesByEmail.loader, "/api/services/purchases?email=ALICE.SHAPE@dash.test", { auth: staff }));
    expect(byEmail).toEqual({ success: true, data: { purchases: [purchaseShape(alicePurchase)] } });
    const byId = await readJson(await call(userPurchases.loader, `/api/users/${alice.user.id}/purchases`, { auth: staff, params: { id: alice.user.id } }));
    expect(byId).toEqual(byEmail);
    const invalid = await call(purchasesByEmail.loader, "/api/services/purchases?email=nope", { auth: staff });
    expect(invalid.status).toBe(400);
    const staffId = await call(userPurchases.loader, `/api/users/${staff.user.id}/purchases`, { auth: staff, params: { id: staff.user.id } });
    expect(staffId.status).toBe(404);
  });
});

describe("users API", () => {
  it("GET /api/users: customers with search, page, limit and the total", async () => {
    const body = await readJson<{ status: string; data: { users: unknown[]; total: number } }>(
      await call(users.loader, "/api/users?search=shape&limit=1&page=2", { auth: staff }),
    );
    expect(body.status).toBe("success");
    expect(body.data.total).toBe(2);
    expect(body.data.users).toEqual([
      {
        _id: alice.user.id,
        id: alice.user.id,
        name: "Alice Shape",
        email: "alice.shape@dash.test",
        role: "user",
        createdAt: alice.user.createdAt.toISOString(),
        // Each account names its client (a client of one: its own id and name).
        client: { _id: alice.user.id, name: "Alice Shape" },
      },
    ]);
    for (const query of ["limit=0", "limit=101", "page=0", "page=abc"]) {
      const bad = await call(users.loader, `/api/users?${query}`, { auth: staff });
      expect(bad.status, query).toBe(400);
      expect(await bad.json()).toMatchObject(ERROR_SHAPE);
    }
  });
});

describe("overview counts", () => {
  type Counts = { data: { serviceCounts: Record<string, number> } };
  const countsOf = async (auth: Account) => (await readJson<Counts>(await call(usersCount.loader, "/api/users/count", { auth }))).data.serviceCounts;

  it("GET /api/users/count, a customer: paid services and plans, running or delivered; unpaid ones and a plan that never started are not counted", async () => {
    const carol = await createAccount("user", { name: "Carol Counts" });
    await createPurchase(carol.user.id, services[0], { status: "completed" });
    await createPurchase(carol.user.id, services[1], { status: "in_progress" });
    await createPurchase(carol.user.id, services[1], { status: "pending" });
    const plans = (["active", "past_due", "canceled", "incomplete"] as const).map((status) => ({
      userId: carol.user.id,
      planId: "starter",
      status,
      priceCents: 4900,
    }));
    await db.insert(schema.subscriptions).values(plans);
    expect(await countsOf(carol)).toEqual({ totalServicesBooked: 5, completed: 2, inProgress: 3 });
  });

  it("GET /api/users/count, staff: paid purchases, customers who can sign in, revenue net of refunds", async () => {
    const before = await countsOf(staff);
    const dave = await createAccount("user", { name: "Dave Counts" });
    await createAccount("user", { name: "Erin Disabled", disabledAt: new Date() });
    await createAccount("team", { name: "Frank Staff" });
    await createPurchase(dave.user.id, services[0], { status: "completed" });
    await createPurchase(dave.user.id, services[1], { status: "pending" });
    expect(await countsOf(staff)).toEqual({
      servicesBooked: before.servicesBooked! + 1,
      totalActiveUsers: before.totalActiveUsers! + 1,
      totalRevenue: Math.round(before.totalRevenue! * 100 + services[0].priceCents) / 100,
    });
  });
});

describe("reports API", () => {
  const reportShape = () => ({
    _id: reportId,
    id: reportId,
    title: "Plan",
    description: "First steps",
    fileName: "plan.pdf",
    fileSize: samples.pdf().length,
    mimeType: "application/pdf",
    createdAt: expect.any(String),
    service: { _id: services[0].id, name: services[0].name },
    userId: alice.user.id,
  });

  it("GET /api/reports/my-reports: one's own reports", async () => {
    expect(await readJson(await call(myReports.loader, "/api/reports/my-reports", { auth: alice }))).toEqual({
      success: true,
      data: { reports: [reportShape()] },
    });
    expect(await readJson(await call(myReports.loader, "/api/reports/my-reports", { auth: bob }))).toEqual({ success: true, data: { reports: [] } });
  });

  it("GET /api/reports/service/:serviceId: the owner, staff with userId; B naming A is 404", async () => {
    const path = `/api/reports/service/${services[0].id}`;
    const params = { serviceId: services[0].id };
    expect(await readJson(await call(reportsByService.loader, path, { auth: alice, params }))).toEqual({ success: true, data: { reports: [reportShape()] } });
    expect(await readJson(await call(reportsByService.loader, `${path}?userId=${alice.user.id}`, { auth: staff, params }))).toEqual({
      success: true,
      data: { reports: [reportShape()] },
    });
    expect((await call(reportsByService.loader, path, { auth: staff, params })).status).toBe(400);
    expect((await call(reportsByService.loader, `${path}?userId=${alice.user.id}`, { auth: bob, params })).status).toBe(404);
  });
});
