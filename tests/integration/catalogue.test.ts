import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";

import * as landing from "~/routes/_index";
import * as plansApi from "~/routes/api.plans";
import * as servicesApi from "~/routes/api.services";
import * as serviceById from "~/routes/api.services.$id";
import * as purchaseApi from "~/routes/api.services.purchase";
import * as editor from "~/routes/dashboard.catalogue";
import { db, schema } from "~/utils/db.server";

import { call, createAccount, readJson, type Account } from "../dashboard-helpers";
import { catalogue, unique } from "../factories";

/** The catalogue's API and the editor page, with real Requests against the test database. */

let staff: Account;
let customer: Account;

const ERROR_SHAPE = { success: false, status: "error", message: expect.any(String), error: expect.any(String), code: expect.any(String) };

beforeAll(async () => {
  await catalogue();
  staff = await createAccount("team", { name: "Catalogue Staff" });
  customer = await createAccount("user");
});

const json = (body: unknown) => ({ body: JSON.stringify(body), headers: { "Content-Type": "application/json" } });
const form = (fields: Record<string, string>) => ({
  body: new URLSearchParams(fields).toString(),
  headers: { "Content-Type": "application/x-www-form-urlencoded" },
});
const cookieOf = (account: Account) => ({ cookie: account.cookie });

async function createViaApi(body: Record<string, unknown>) {
  return call(servicesApi.action, "/api/services", { auth: staff, method: "POST", ...json(body) });
}

async function listed() {
  return (await readJson<{ data: { _id: string; name: string; price: number }[] }>(await call(servicesApi.loader, "/api/services"))).data;
}

describe("GET /api/plans", () => {
  test("the three monthly plans with price, currency, interval and features", async () => {
    const body = await readJson<{ success: boolean; data: Record<string, unknown>[] }>(await call(plansApi.loader, "/api/plans"));
    expect(body.success).toBe(true);
    expect(body.data.map((plan) => [plan.key, plan.name, plan.price])).toEqual([
      ["starter", "STARTER PACKAGE", 49],
      ["pro", "PRO PACKAGE", 159],
      ["vip", "VIP TREATMENT", 589],
    ]);
    expect(body.data[2]).toEqual({
      _id: expect.any(String),
      key: "vip",
      name: "VIP TREATMENT",
      price: 589,
      currency: "usd",
      interval: "month",
      features: expect.arrayContaining(["$100 ad credits every month (no rollover)"]),
    });
  });
});

describe("POST /api/services and PATCH /api/services/:id", () => {
  test("staff add a service: 201 with the Service, listed by GET /api/services", async () => {
    const name = `Story Templates ${unique()}`;
    const response = await createViaApi({ name, description: "Ten templates.", price: 45.5 });
    expect(response.status).toBe(201);
    const { data } = await readJson<{ data: Record<string, unknown> }>(response);
    expect(data).toEqual({
      _id: expect.any(String),
      name,
      price: 45.5,
      currency: "usd",
      description: "Ten templates.",
      active: true,
      displayOrder: expect.any(Number),
    });
    expect((await listed()).find((service) => service._id === data._id)).toMatchObject({ name, price: 45.5 });
  });

  test("customers get 403 and the signed-out 401", async () => {
    const asCustomer = await call(servicesApi.action, "/api/services", { auth: customer, method: "POST", ...json({ name: `X ${unique()}`, price: 1 }) });
    expect(asCustomer.status).toBe(403);
    expect(await readJson(asCustomer)).toEqual(ERROR_SHAPE);
    const anonymous = await call(servicesApi.action, "/api/services", { method: "POST", ...json({ name: `X ${unique()}`, price: 1 }) });
    expect(anonymous.status).toBe(401);
  });

  test.each([
    [{ name: "Free", price: 0 }, "Price must be more than $0"],
    [{ name: "Negative", price: -5 }, "Price must be more than $0"],
    [{ name: "Too dear", price: 100_000.01 }, "Price must be at most $100,000"],
    [{ name: "Fraction", price: 10.005 }, "Enter a price in dollars, e.g. 28.99"],
    [{ name: "Words", price: "ten" }, "Enter a price in dollars, e.g. 28.99"],
    [{ name: "No price" }, "Price is required"],
    [{ name: "", price: 10 }, "Name is required"],
    [{ name: "x".repeat(121), price: 10 }, "Name must be at most 120 characters"],
  ])("%j is refused with 400: %s", async (body, message) => {
    const response = await createViaApi(body);
    expect(response.status).toBe(400);
    expect(await readJson(response)).toMatchObject({ ...ERROR_SHAPE, message, code: "INVALID_INPUT" });
  });

  test("$100,000 and a 120-character name are fine", async () => {
    const response = await createViaApi({ name: `${unique()}${"y".repeat(110)}`, price: 100_000 });
    expect(response.status).toBe(201);
  });

  test("a taken name (any case) answers 409", async () => {
    const name = `Duplicate Me ${unique()}`;
    expect((await createViaApi({ name, price: 10 })).status).toBe(201);
    const again = await createViaApi({ name: name.toLowerCase(), price: 10 });
    expect(again.status).toBe(409);
    expect(await readJson(again)).toMatchObject({ message: "A service with this name already exists.", code: "NAME_TAKEN" });
  });

  test("a new price is listed and charged to the next order; deactivated, it is gone and cannot be ordered (400)", async () => {
    const created = await readJson<{ data: { _id: string } }>(await createViaApi({ name: `Hook Writing ${unique()}`, price: 20 }));
    const id = created.data._id;
    const patch = (body: unknown, auth: Account | null = staff) =>
      call(serviceById.action, `/api/services/${id}`, { auth, method: "PATCH", params: { id }, ...json(body) });

    expect((await patch({ price: 1 }, customer)).status).toBe(403);
    const changed = await patch({ price: 24.75, description: "Now with a workshop." });
    expect(changed.status).toBe(200);
    expect((await readJson<{ data: unknown }>(changed)).data).toMatchObject({ _id: id, price: 24.75, description: "Now with a workshop.", active: true });
    expect((await listed()).find((service) => service._id === id)?.price).toBe(24.75);

    const order = await call(purchaseApi.action, "/api/services/purchase", {
      method: "POST",
      ...json({ name: "Api Buyer", email: `api-${unique()}@example.test`, services: [{ serviceId: id, pricingType: "one_time", quantity: 1 }] }),
    });
    expect(order.status).toBe(200);
    const { sessionId } = (await readJson<{ data: { sessionId: string } }>(order)).data;
    const [paid] = await db.select().from(schema.orders).where(eq(schema.orders.stripeSessionId, sessionId));
    expect(paid.totalCents).toBe(2475);

    expect((await patch({ active: false })).status).toBe(200);
    expect((await listed()).map((service) => service._id)).not.toContain(id);
    const refused = await call(purchaseApi.action, "/api/services/purchase", {
      method: "POST",
      ...json({ name: "Api Buyer", email: `api-${unique()}@example.test`, services: [{ serviceId: id, pricingType: "one_time", quantity: 1 }] }),
    });
    expect(refused.status).toBe(400);
    expect((await patch({ price: 0 })).status).toBe(400);
  });

  test("an unknown id is 404", async () => {
    const id = crypto.randomUUID();
    const response = await call(serviceById.action, `/api/services/${id}`, { auth: staff, method: "PATCH", params: { id }, ...json({ price: 5 }) });
    expect(response.status).toBe(404);
    const malformed = await call(serviceById.action, "/api/services/nope", { auth: staff, method: "PATCH", params: { id: "nope" }, ...json({ price: 5 }) });
    expect(malformed.status).toBe(404);
  });
});

describe("/dashboard/catalogue", () => {
  test("staff see services, packages, plans and the change log; customers get 403", async () => {
    const page = await readJson<Awaited<ReturnType<typeof editor.loader>>>(await call(editor.loader, "/dashboard/catalogue", { auth: cookieOf(staff) }));
    const audit = page.services.find((service) => service.name === "Social Media Audit");
    expect(audit?.packages.map((tier) => tier.name)).toEqual(["Starter", "Growth", "Premium"]);
    expect(page.plans.map((plan) => plan.key)).toEqual(["starter", "pro", "vip"]);
    expect(page.services.some((service) => service.name.includes("(Growth)"))).toBe(false);
    expect((await call(editor.loader, "/dashboard/catalogue", { auth: cookieOf(customer) })).status).toBe(403);
  });

  test("a form adds a service (redirect with a toast) and the change log names who did it", async () => {
    const name = `Form Service ${unique()}`;
    const response = await call(editor.action, "/dashboard/catalogue", {
      auth: cookieOf(staff),
      method: "POST",
      ...form({ formId: "service-new", intent: "create-service", name, description: "Made by a form.", price: "$1,250.50", active: "on", displayOrder: "40" }),
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/dashboard/catalogue");
    const page = await readJson<Awaited<ReturnType<typeof editor.loader>>>(await call(editor.loader, "/dashboard/catalogue", { auth: cookieOf(staff) }));
    expect(page.services.find((service) => service.name === name)).toMatchObject({ priceCents: 125_050, active: true, sortOrder: 40 });
    expect(page.changes[0]).toMatchObject({ actorName: "Catalogue Staff", entity: "service", action: "create", entityName: name, before: null });
  });

  test("a bad field answers 400 with that field's message; a taken name 409 on the name field", async () => {
    const bad = await call(editor.action, "/dashboard/catalogue", {
      auth: cookieOf(staff),
      method: "POST",
      ...form({ formId: "service-new", intent: "create-service", name: "Fine name", price: "0" }),
    });
    expect(bad.status).toBe(400);
    expect(await readJson(bad)).toMatchObject({ formId: "service-new", result: { error: { price: ["Price must be more than $0"] } } });

    const taken = await call(editor.action, "/dashboard/catalogue", {
      auth: cookieOf(staff),
      method: "POST",
      ...form({ formId: "service-new", intent: "create-service", name: "social media AUDIT", price: "10" }),
    });
    expect(taken.status).toBe(409);
    expect(await readJson(taken)).toMatchObject({ result: { error: { name: ["A service with this name already exists."] } } });
  });

  test("packages and plans are saved from their forms and the landing page shows them", async () => {
    const page = await readJson<Awaited<ReturnType<typeof editor.loader>>>(await call(editor.loader, "/dashboard/catalogue", { auth: cookieOf(staff) }));
    const kit = page.services.find((service) => service.name === "Content Creation Kit")!;
    const tiers = {
      "tiers[0].name": "Starter",
      "tiers[0].description": "A week.",
      "tiers[0].features": "5 posts\nCaptions",
      "tiers[1].name": "Growth",
      "tiers[1].price": "81.00",
      "tiers[1].features": "10 posts",
      "tiers[2].name": "Premium",
      "tiers[2].price": "150",
      "tiers[2].features": "20 posts\n\nScheduling",
    };
    const missing = await call(editor.action, "/dashboard/catalogue", {
      auth: cookieOf(staff),
      method: "POST",
      ...form({ formId: `packages-${kit.id}`, intent: "save-packages", serviceId: kit.id, ...tiers, "tiers[2].price": "" }),
    });
    expect(missing.status).toBe(400);
    expect(await readJson(missing)).toMatchObject({ result: { error: { "tiers[2].price": ["Price is required"] } } });

    const saved = await call(editor.action, "/dashboard/catalogue", {
      auth: cookieOf(staff),
      method: "POST",
      ...form({ formId: `packages-${kit.id}`, intent: "save-packages", serviceId: kit.id, ...tiers }),
    });
    expect(saved.status).toBe(302);

    const starter = page.plans.find((plan) => plan.key === "starter")!;
    const plan = await call(editor.action, "/dashboard/catalogue", {
      auth: cookieOf(staff),
      method: "POST",
      ...form({ formId: `plan-${starter.id}`, intent: "update-plan", id: starter.id, price: "55", features: "12 posts\nSnapshot" }),
    });
    expect(plan.status).toBe(302);

    const home = await readJson<{
      showcase: { ok: true; data: { name: string; packages: { priceCents: number; features: string[] }[] }[] };
      plans: { ok: true; data: { key: string; priceCents: number; features: string[] }[] };
    }>(await call(landing.loader, "/"));
    const card = home.showcase.data.find((service) => service.name === "Content Creation Kit")!;
    expect(card.packages.map((tier) => tier.priceCents)).toEqual([3899, 8100, 15000]);
    expect(card.packages[2].features).toEqual(["20 posts", "Scheduling"]);
    expect(home.plans.data.find((p) => p.key === "starter")).toMatchObject({ priceCents: 5500, features: ["12 posts", "Snapshot"] });
  });

  test("the landing page shows the Social Media Audit at one price, in the picker and under Our Services", async () => {
    const home = await readJson<{
      services: { ok: true; data: { name: string; price: number }[] };
      showcase: { ok: true; data: { name: string; packages: { priceCents: number }[] }[] };
    }>(await call(landing.loader, "/"));
    const picker = home.services.data.find((service) => service.name === "Social Media Audit")!;
    const card = home.showcase.data.find((service) => service.name === "Social Media Audit")!;
    expect(picker.price).toBe(28.99);
    expect(Math.min(...card.packages.map((tier) => tier.priceCents))).toBe(2899);
  });
});
