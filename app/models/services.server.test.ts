import { eq } from "drizzle-orm";
import { beforeAll, expect, test } from "vitest";
import { db, schema } from "~/utils/db.server";
import { seedServices } from "../../tests/payments-helpers";
import { ensurePackageService, findActiveServices, findPackage, listActiveServices, toServiceJson } from "./services.server";

beforeAll(async () => {
  await seedServices();
});

test("the catalogue lists active services in display order, as dollars", async () => {
  const [hidden] = await db.insert(schema.services).values({ slug: "hidden-one", name: "Hidden", priceCents: 1, active: false, sortOrder: -1 }).returning();
  const listed = await listActiveServices();
  expect(listed.map((s) => s.sortOrder)).toEqual([...listed.map((s) => s.sortOrder)].sort((a, b) => a - b));
  expect(listed.some((s) => s.id === hidden.id)).toBe(false);
  expect(toServiceJson({ id: "x", name: "Audit", priceCents: 2899, currency: "usd", description: null })).toEqual({
    _id: "x",
    name: "Audit",
    price: 28.99,
    currency: "usd",
    description: null,
  });
  expect(await findActiveServices([hidden.id, "not-a-uuid"])).toEqual([]);
});

test("an Our Services package becomes one inactive catalogue row, priced from the package list", async () => {
  expect(findPackage("brand-strategy:growth")).toMatchObject({ slug: "package-brand-strategy-growth", priceCents: 12900 });
  expect(findPackage("brand-strategy:platinum")).toBeNull();
  expect(findPackage("../etc:starter")).toBeNull();
  const [first, second] = await Promise.all([ensurePackageService("content-kit:premium"), ensurePackageService("content-kit:premium")]);
  expect(first?.id).toBe(second?.id);
  expect(first).toMatchObject({ name: "Content Creation Kit (Premium)", priceCents: 14999, active: false });
  await db.update(schema.services).set({ priceCents: 1 }).where(eq(schema.services.id, first!.id));
  expect((await ensurePackageService("content-kit:premium"))?.priceCents).toBe(14999);
});
