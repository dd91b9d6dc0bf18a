import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";

import * as landing from "~/routes/_index";
import * as plansApi from "~/routes/api+/plans";
import * as servicesApi from "~/routes/api+/services+/_layout";
import * as serviceById from "~/routes/api+/services+/$id";
import * as purchaseApi from "~/routes/api+/services+/purchase";
import * as editor from "~/routes/dashboard+/_staff+/catalogue";
import * as planPage from "~/routes/dashboard+/_staff+/catalogue_.plans.$planId";
import * as servicePage from "~/routes/dashboard+/_staff+/catalogue_.services.$serviceId";
import * as newService from "~/routes/dashboard+/_staff+/catalogue_.services.new";
import { db, schema } from "~/utils/db.server";

import { call, createAccount, readJson, type Account } from "../support/dashboard-helpers";
import { catalogue, unique } from "../support/factories";

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
  const staffCookie = () => cookieOf(staff);
  const overview = async () => readJson<Awaited<ReturnType<typeof editor.loader>>>(await call(editor.loader, "/dashboard/catalogue", { auth: staffCookie() }));
  const post = (handler: typeof editor.action, path: string, fields: Record<string, string>, params: Record<string, string> = {}) =>
    call(handler, path, { auth: staffCookie(), method: "POST", params, ...form(fields) });

  test("staff see a table of services (packages, last change) and one of plans; customers get 403", async () => {
    const page = await overview();
    const audit = page.services.find((service) => service.name === "Social Media Audit");
    expect(audit).toMatchObject({ priceCents: 2899, active: true, packageCount: 3 });
    expect(page.plans.map((plan) => plan.name)).toEqual(["STARTER PACKAGE", "PRO PACKAGE", "VIP TREATMENT"]);
    expect(page.services.some((service) => service.name.includes("(Growth)"))).toBe(false);
    expect(page.services.map((service) => service.sortOrder)).toEqual([...page.services.map((service) => service.sortOrder)].sort((a, b) => a - b));
    expect((await call(editor.loader, "/dashboard/catalogue", { auth: cookieOf(customer) })).status).toBe(403);
  });

  test("the new-service page adds a service and opens its page; the table shows who changed it last", async () => {
    const name = `Form Service ${unique()}`;
    const response = await post(newService.action, "/dashboard/catalogue/services/new", {
      formId: "service-new",
      intent: "create-service",
      name,
      description: "Made by a form.",
      price: "$1,250.50",
      active: "on",
      displayOrder: "40",
    });
    expect(response.status).toBe(302);
    const location = response.headers.get("Location")!;
    expect(location).toMatch(/^\/dashboard\/catalogue\/services\/[0-9a-f-]{36}$/);
    const serviceId = location.split("/").pop()!;
    const page = await readJson<Awaited<ReturnType<typeof servicePage.loader>>>(
      await call(servicePage.loader, location, { auth: staffCookie(), params: { serviceId } }),
    );
    expect(page.service).toMatchObject({ name, priceCents: 125_050, active: true, sortOrder: 40, packages: [] });
    expect(page.changes[0]).toMatchObject({ actorName: "Catalogue Staff", entity: "service", action: "create", entityName: name, before: null });
    const row = (await overview()).services.find((service) => service.id === serviceId);
    expect(row).toMatchObject({ packageCount: 0, lastChange: { by: "Catalogue Staff" } });
  });

  test("a bad field answers 400 with that field's message; a taken name 409 on the name field", async () => {
    const bad = await post(newService.action, "/dashboard/catalogue/services/new", {
      formId: "service-new",
      intent: "create-service",
      name: "Fine name",
      price: "0",
    });
    expect(bad.status).toBe(400);
    expect(await readJson(bad)).toMatchObject({ formId: "service-new", result: { error: { price: ["Price must be more than $0"] } } });

    const taken = await post(newService.action, "/dashboard/catalogue/services/new", {
      formId: "service-new",
      intent: "create-service",
      name: "social media AUDIT",
      price: "10",
    });
    expect(taken.status).toBe(409);
    expect(await readJson(taken)).toMatchObject({ result: { error: { name: ["A service with this name already exists."] } } });
  });

  test("each page takes its own forms only: another form's intent is 400", async () => {
    const page = await overview();
    const [first] = page.services;
    const refused = await post(editor.action, "/dashboard/catalogue", { formId: "x", intent: "update-service", id: first.id, name: first.name, price: "10" });
    expect(refused.status).toBe(400);
    expect(await readJson(refused)).toMatchObject({ result: { error: { "": ["Please choose what to change."] } } });
    expect((await overview()).services.find((service) => service.id === first.id)?.priceCents).toBe(first.priceCents);
  });

  test("unknown, malformed and hidden services and plans are 404 pages", async () => {
    const [hidden] = await db
      .insert(schema.services)
      .values({ slug: `package-hidden-${unique()}`, name: "Hidden (Growth)", priceCents: 100, active: false })
      .returning();
    for (const serviceId of [crypto.randomUUID(), "nope", hidden.id]) {
      const response = await call(servicePage.loader, `/dashboard/catalogue/services/${serviceId}`, { auth: staffCookie(), params: { serviceId } });
      expect(response.status).toBe(404);
    }
    for (const planId of [crypto.randomUUID(), "nope"]) {
      const response = await call(planPage.loader, `/dashboard/catalogue/plans/${planId}`, { auth: staffCookie(), params: { planId } });
      expect(response.status).toBe(404);
    }
  });

  test("up and down trade places with the neighbour (logged); the top cannot go up", async () => {
    const before = await overview();
    const [first, second] = before.services;
    const moved = await post(editor.action, "/dashboard/catalogue", { formId: `move-${second.id}`, intent: "move-service", id: second.id, direction: "up" });
    expect(moved.status).toBe(302);
    expect(moved.headers.get("Location")).toBe(`/dashboard/catalogue#service-${second.id}`);
    const after = await overview();
    expect(after.services.slice(0, 2).map((service) => service.id)).toEqual([second.id, first.id]);
    expect(
      after.changes
        .slice(0, 2)
        .map((change) => change.entityName)
        .sort(),
    ).toEqual([first.name, second.name].sort());

    const top = await post(editor.action, "/dashboard/catalogue", { formId: "x", intent: "move-service", id: second.id, direction: "up" });
    expect(top.status).toBe(302);
    expect((await overview()).services.map((service) => service.id)).toEqual(after.services.map((service) => service.id));

    const back = await post(editor.action, "/dashboard/catalogue", { formId: "x", intent: "move-service", id: second.id, direction: "down" });
    expect(back.status).toBe(302);
    expect((await overview()).services.slice(0, 2).map((service) => service.id)).toEqual([first.id, second.id]);

    const sideways = await post(editor.action, "/dashboard/catalogue", { formId: "x", intent: "move-service", id: second.id, direction: "sideways" });
    expect(sideways.status).toBe(400);
    expect(await readJson(sideways)).toMatchObject({ result: { error: { direction: ["Choose up or down"] } } });
  });

  test("services sharing a display order still move one place at a time", async () => {
    const a = await createViaApi({ name: `Tie A ${unique()}`, price: 5, displayOrder: 9000 });
    const b = await createViaApi({ name: `Tie B ${unique()}`, price: 5, displayOrder: 9000 });
    const idA = (await readJson<{ data: { _id: string } }>(a)).data._id;
    const idB = (await readJson<{ data: { _id: string } }>(b)).data._id;
    const order = async () => (await overview()).services.map((service) => service.id).filter((id) => id === idA || id === idB);
    expect(await order()).toEqual([idA, idB]);
    expect((await post(editor.action, "/dashboard/catalogue", { formId: "x", intent: "move-service", id: idB, direction: "up" })).status).toBe(302);
    expect(await order()).toEqual([idB, idA]);
    const numbers = (await overview()).services.map((service) => service.sortOrder);
    expect(new Set(numbers).size).toBe(numbers.length);
  });

  test("packages and plans are saved from their pages and the landing page shows them", async () => {
    const page = await overview();
    const kit = page.services.find((service) => service.name === "Content Creation Kit")!;
    const kitPath = `/dashboard/catalogue/services/${kit.id}`;
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
    const packagesForm = { formId: `packages-${kit.id}`, intent: "save-packages", serviceId: kit.id, ...tiers };
    const missing = await post(servicePage.action, kitPath, { ...packagesForm, "tiers[2].price": "" }, { serviceId: kit.id });
    expect(missing.status).toBe(400);
    expect(await readJson(missing)).toMatchObject({ result: { error: { "tiers[2].price": ["Price is required"] } } });

    const saved = await post(servicePage.action, kitPath, packagesForm, { serviceId: kit.id });
    expect(saved.status).toBe(302);
    expect(saved.headers.get("Location")).toBe(kitPath);

    const starter = page.plans.find((plan) => plan.name === "STARTER PACKAGE")!;
    const planPath = `/dashboard/catalogue/plans/${starter.id}`;
    const badPlan = await post(planPage.action, planPath, { formId: `plan-${starter.id}`, intent: "update-plan", id: starter.id, price: "55", features: "" });
    expect(badPlan.status).toBe(400);
    expect(await readJson(badPlan)).toMatchObject({ result: { error: { features: ["Add at least one feature"] } } });
    const plan = await post(planPage.action, planPath, {
      formId: `plan-${starter.id}`,
      intent: "update-plan",
      id: starter.id,
      price: "55",
      features: "12 posts\nSnapshot",
    });
    expect(plan.status).toBe(302);
    expect(plan.headers.get("Location")).toBe(planPath);
    const planView = await readJson<Awaited<ReturnType<typeof planPage.loader>>>(
      await call(planPage.loader, planPath, { auth: staffCookie(), params: { planId: starter.id } }),
    );
    expect(planView.changes[0]).toMatchObject({ entity: "plan", before: { priceCents: 4900 }, after: { priceCents: 5500 } });

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
      services: { ok: true; data: { name: string; priceCents: number }[] };
      showcase: { ok: true; data: { name: string; packages: { priceCents: number }[] }[] };
    }>(await call(landing.loader, "/"));
    const picker = home.services.data.find((service) => service.name === "Social Media Audit")!;
    const card = home.showcase.data.find((service) => service.name === "Social Media Audit")!;
    expect(picker.priceCents).toBe(2899);
    expect(Math.min(...card.packages.map((tier) => tier.priceCents))).toBe(2899);
  });
});
