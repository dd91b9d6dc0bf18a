import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";

import { db, schema } from "~/utils/db.server";

import { createTestUser, unique } from "../../tests/support/factories";
import {
  CatalogueFieldError,
  createService,
  ensureCatalogue,
  ensurePackageService,
  findPlan,
  getStorefront,
  listCatalogueChanges,
  savePackages,
  updatePlan,
  updateService,
  type CatalogueEditor,
} from "./catalogue.server";
import { createPlanOrder, createServicesOrder } from "./orders.server";

let staff: CatalogueEditor;

beforeAll(async () => {
  await ensureCatalogue();
  const user = await createTestUser({ role: "team", name: "Cat Editor" });
  staff = { id: user.id, name: user.name };
});

const buyer = () => ({ name: "Cat Buyer", email: `cat-${unique()}@example.test` });

async function purchasesOf(orderId: string) {
  return db.select().from(schema.purchases).where(eq(schema.purchases.orderId, orderId));
}

describe("the seed", () => {
  test("puts services, Our Services packages and the plans in the database, once", async () => {
    expect(await ensureCatalogue()).toBe(false);
    const storefront = await getStorefront();
    expect(storefront.plans.map((plan) => [plan.key, plan.name, plan.priceCents])).toEqual([
      ["starter", "STARTER PACKAGE", 4900],
      ["pro", "PRO PACKAGE", 15900],
      ["vip", "VIP TREATMENT", 58900],
    ]);
    expect(storefront.showcase.map((service) => [service.name, service.packages.map((tier) => tier.priceCents)])).toEqual([
      ["Social Media Audit", [2899, 5999, 9999]],
      ["Content Creation Kit", [3899, 7999, 14999]],
      ["Brand Strategy Session", [5000, 12900, 24900]],
    ]);
  });

  test("the Social Media Audit has one price: the picker's is its first package's", async () => {
    const { services, showcase } = await getStorefront();
    const audits = services.filter((service) => service.name === "Social Media Audit");
    expect(audits).toHaveLength(1);
    expect(showcase.find((service) => service.name === "Social Media Audit")?.packages[0].priceCents).toBe(audits[0].priceCents);
  });
});

describe("services", () => {
  test("a new service is listed in the storefront and logged with who added it", async () => {
    const name = `Reels Coaching ${unique()}`;
    const created = await createService(staff, { name, description: "One call.", priceCents: 12_500 });
    expect(created).toMatchObject({ name, priceCents: 12_500, active: true });
    expect((await getStorefront()).services.map((service) => service.id)).toContain(created.id);
    const [change] = await listCatalogueChanges(1);
    expect(change).toMatchObject({ actorId: staff.id, actorName: "Cat Editor", entity: "service", action: "create", entityId: created.id, before: null });
    expect(change.after).toMatchObject({ name, priceCents: 12_500, active: true });
  });

  test("the log names the actor as the account is called now, not as it was then", async () => {
    const user = await createTestUser({ role: "team", name: "Before Rename" });
    const created = await createService({ id: user.id, name: user.name }, { name: `Renamed Actor ${unique()}`, priceCents: 1_000 });
    await db.update(schema.users).set({ name: "After Rename" }).where(eq(schema.users.id, user.id));
    const change = (await listCatalogueChanges(50)).find((c) => c.entityId === created.id);
    expect(change).toMatchObject({ actorId: user.id, actorName: "After Rename" });
    // An account that is gone: the name stored with the change.
    await db.update(schema.catalogueChanges).set({ actorId: crypto.randomUUID() }).where(eq(schema.catalogueChanges.entityId, created.id));
    expect((await listCatalogueChanges(50)).find((c) => c.entityId === created.id)).toMatchObject({ actorName: "Before Rename" });
  });

  test("names are unique whatever their case: 409 on the name field", async () => {
    const name = `Unique Name ${unique()}`;
    await createService(staff, { name, priceCents: 100 });
    const refused = await createService(staff, { name: name.toUpperCase(), priceCents: 100 }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(CatalogueFieldError);
    expect(refused).toMatchObject({ status: 409, field: "name", message: "A service with this name already exists." });
    const other = await createService(staff, { name: `Other ${unique()}`, priceCents: 100 });
    await expect(updateService(staff, other.id, { name })).rejects.toMatchObject({ status: 409, field: "name" });
  });

  test("two editors adding the same name at once: one wins, the other gets 409", async () => {
    const name = `Race ${unique()}`;
    const results = await Promise.allSettled([createService(staff, { name, priceCents: 100 }), createService(staff, { name, priceCents: 100 })]);
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    expect(results.find((result) => result.status === "rejected")).toMatchObject({ reason: { status: 409 } });
  });

  test("a price change is logged before and after; the next order pays it, the earlier one keeps its price", async () => {
    const service = await createService(staff, { name: `Ads Audit ${unique()}`, priceCents: 10_000 });
    const first = await createServicesOrder(buyer(), [service.id]);
    await updateService(staff, service.id, { priceCents: 13_350 });
    const [change] = await listCatalogueChanges(1);
    expect(change).toMatchObject({ action: "update", before: { priceCents: 10_000 }, after: { priceCents: 13_350 } });
    const second = await createServicesOrder(buyer(), [service.id]);
    expect((await purchasesOf(first.orderId)).map((p) => p.amountCents)).toEqual([10_000]);
    expect((await purchasesOf(second.orderId)).map((p) => p.amountCents)).toEqual([13_350]);
  });

  test("a deactivated service leaves the storefront, cannot be ordered, and stays on old orders", async () => {
    const service = await createService(staff, { name: `Retired ${unique()}`, priceCents: 4_000 });
    const old = await createServicesOrder(buyer(), [service.id]);
    await updateService(staff, service.id, { active: false });
    expect((await getStorefront()).services.map((s) => s.id)).not.toContain(service.id);
    await expect(createServicesOrder(buyer(), [service.id])).rejects.toMatchObject({ status: 400 });
    expect(await purchasesOf(old.orderId)).toHaveLength(1);
  });

  test("an unknown or hidden service is 404", async () => {
    await expect(updateService(staff, crypto.randomUUID(), { priceCents: 100 })).rejects.toMatchObject({ status: 404 });
    await expect(updateService(staff, "not-a-uuid", { priceCents: 100 })).rejects.toMatchObject({ status: 404 });
    const hidden = await ensurePackageService("social-media-audit:2");
    await expect(updateService(staff, hidden!.id, { priceCents: 100 })).rejects.toMatchObject({ status: 404 });
  });
});

describe("packages", () => {
  test("a package is ordered through one hidden row per tier, at the package's current price", async () => {
    const [first, second] = await Promise.all([ensurePackageService("content-creation-kit:3"), ensurePackageService("content-creation-kit:3")]);
    expect(first?.id).toBe(second?.id);
    expect(first).toMatchObject({ name: "Content Creation Kit (Premium)", priceCents: 14_999, active: false });
    expect(await ensurePackageService("content-creation-kit:4")).toBeNull();
    expect(await ensurePackageService("../etc:1")).toBeNull();
  });

  test("a package's description reads as sentences, each with one full stop", async () => {
    const growth = await ensurePackageService("brand-strategy-session:2");
    expect(growth?.description).toMatch(/^Positioning plus a voice and visual direction\. Two 60-minute sessions a week apart\. /);
    expect(growth?.description).not.toMatch(/\.\./);
  });

  test("three tiers are saved together; tier 1 is the service's own price; the next package order pays the new price", async () => {
    const service = await createService(staff, { name: `Packaged ${unique()}`, priceCents: 2_000 });
    const tiers = [
      { name: "Starter", description: "One.", features: ["a"] },
      { name: "Growth", description: "Two.", priceCents: 4_000, features: ["b", "c"] },
      { name: "Premium", description: "Three.", priceCents: 8_000, features: ["d"] },
    ];
    const saved = await savePackages(staff, service.id, tiers);
    expect(saved.map((tier) => tier.priceCents)).toEqual([null, 4_000, 8_000]);
    const card = (await getStorefront()).showcase.find((s) => s.id === service.id);
    expect(card?.packages.map((tier) => tier.priceCents)).toEqual([2_000, 4_000, 8_000]);
    expect((await listCatalogueChanges(1))[0]).toMatchObject({ entity: "packages", action: "create", before: null });

    const order = await createServicesOrder(buyer(), [], [`${service.slug}:2`]);
    await savePackages(staff, service.id, [tiers[0], { ...tiers[1], priceCents: 4_500 }, tiers[2]]);
    const [change] = await listCatalogueChanges(1);
    expect(change).toMatchObject({ entity: "packages", action: "update" });
    expect((change.before as { tiers: { priceCents: number | null }[] }).tiers[1].priceCents).toBe(4_000);
    const next = await createServicesOrder(buyer(), [], [`${service.slug}:2`]);
    expect((await purchasesOf(order.orderId)).map((p) => p.amountCents)).toEqual([4_000]);
    expect((await purchasesOf(next.orderId)).map((p) => p.amountCents)).toEqual([4_500]);

    await updateService(staff, service.id, { active: false });
    await expect(createServicesOrder(buyer(), [], [`${service.slug}:2`])).rejects.toMatchObject({ status: 400 });
    expect((await getStorefront()).showcase.map((s) => s.id)).not.toContain(service.id);
  });

  test("anything but three tiers is refused", async () => {
    const service = await createService(staff, { name: `Two Tiers ${unique()}`, priceCents: 2_000 });
    await expect(savePackages(staff, service.id, [{ name: "A", description: "", features: ["x"] }])).rejects.toMatchObject({ status: 400 });
  });
});

describe("plans", () => {
  test("a new plan price is charged to the next subscriber; a running subscription keeps its own", async () => {
    const before = (await findPlan("pro"))!;
    const running = await createPlanOrder(buyer(), "pro");
    await updatePlan(staff, before.id, { priceCents: 17_900, features: ["Everything in PRO", "More"] });
    expect((await getStorefront()).plans.find((plan) => plan.key === "pro")).toMatchObject({ priceCents: 17_900, features: ["Everything in PRO", "More"] });
    const next = await createPlanOrder(buyer(), "pro");
    const subscriptionOf = async (orderId: string) => (await db.select().from(schema.subscriptions).where(eq(schema.subscriptions.orderId, orderId)))[0];
    expect((await subscriptionOf(running.orderId)).priceCents).toBe(15_900);
    expect((await subscriptionOf(next.orderId)).priceCents).toBe(17_900);
    expect((await listCatalogueChanges(1))[0]).toMatchObject({ entity: "plan", before: { priceCents: 15_900 }, after: { priceCents: 17_900 } });
    await updatePlan(staff, before.id, { priceCents: before.priceCents, features: before.features });
  });

  test("an unknown plan is 404", async () => {
    await expect(updatePlan(staff, crypto.randomUUID(), { priceCents: 100 })).rejects.toMatchObject({ status: 404 });
  });
});
