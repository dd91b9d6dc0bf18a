import { beforeAll, expect, test } from "vitest";

import { db, schema } from "~/utils/db.server";

import { seedServices } from "../../tests/support/payments-helpers";
import { findActiveServices, listActiveServices, toServiceJson } from "./services.server";

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
